//go:build !wasm

package ui

// chartPointer is the overlay's browser side (pointer_wasm.go); outside
// the browser there is no pointer.
type chartPointer struct{}

func (c *explorer) afterRender()    {}
func (c *explorer) releasePointer() {}
