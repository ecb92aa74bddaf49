//go:build !wasm

package chartview

// chartPointer is the overlay's browser side (pointer_wasm.go); outside
// the browser there is no pointer.
type chartPointer struct{}

// AfterRender: outside the browser there is no overlay to lay out.
func (pt *Pointer) AfterRender() {}

// Release: outside the browser there are no listeners.
func (pt *Pointer) Release() {}
