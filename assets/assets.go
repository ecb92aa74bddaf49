// Package assets holds the source files the binary embeds: the model
// presets of the explorer's menu. (Icons and seed texts are copied into
// web/ by the Makefile instead: the browser fetches them, the binary never
// reads them.)
package assets

import "embed"

// Presets holds presets/*.json, one model preset per file: a name, a
// source line and a config in the interchange format.
//
//go:embed presets/*.json
var Presets embed.FS
