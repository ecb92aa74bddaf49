//go:build !wasm

package ui

// Outside the browser there is no history: go test drives restoreFrom
// directly.

func (c *explorer) listenHistory() {}

func (h *history) release() {}

// scheduleAddress writes at once: there is no frame to wait for.
func (c *explorer) scheduleAddress() { c.flushAddress() }
