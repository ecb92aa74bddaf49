// Package liberation stands in for codeberg.org/go-fonts/liberation v0.5.0
// in Headroom's build (a replace in Headroom's go.mod): it links the one
// Liberation face the chart draws, Liberation Sans Regular, and its other
// eleven packages alias that face. See README.md.
package liberation // import "codeberg.org/go-fonts/liberation"
