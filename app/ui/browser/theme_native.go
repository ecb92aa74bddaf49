//go:build !wasm

package browser

// Theme follows the page's colour scheme: outside the browser there is
// none, and it is light.
type Theme struct{}

// Dark is false outside the browser; onChange is never called.
func (t *Theme) Dark(onChange func()) bool { return false }
