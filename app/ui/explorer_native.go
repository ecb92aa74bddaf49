//go:build !wasm

package ui

// Outside the browser (the server's pre-render, go test) there are no
// animation frames: a render runs at once, so tests see its result.

func (c *explorer) setupFrames() {}

func (c *explorer) releaseFrames() {}

func (c *explorer) requestRender() { c.renderNow() }

func (c *explorer) scheduleURL(float64) { c.writeURL() }

func measureChart() int { return 0 }

func copyText(string) {}

// firstFrame: outside the browser there are no frames (and OnInit does
// not render).
func (c *explorer) firstFrame() {}

// markBusy: outside the browser nothing waits for a frame.
func (c *explorer) markBusy() {}
