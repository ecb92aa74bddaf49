//go:build !wasm

package browser

// HoldServerPage does nothing outside the browser: there is no server's
// page to replace.
func HoldServerPage() {}

// ReleaseServerPage does nothing outside the browser.
func ReleaseServerPage(held ...string) {}
