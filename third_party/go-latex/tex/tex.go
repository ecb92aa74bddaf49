// Package tex stands in for codeberg.org/go-latex/latex/tex: the types
// gonum.org/v1/plot/text's LaTeX handler names (see ../README.md).
package tex // import "codeberg.org/go-latex/latex/tex"

// Node is a typeset box.
type Node interface {
	Width() float64
	Height() float64
	Depth() float64
}

// Tree is a box of boxes.
type Tree interface {
	Node
	Nodes() []Node
}

// Ship lays a tree out; in this stand-in there is never one to lay out.
type Ship struct{}

// Call does nothing: mtex.Parse never returns a tree here.
func (*Ship) Call(ox, oy float64, box Tree) {}
