//go:build !wasm

package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestE2ERenderInInputTask: an input that comes when the animation frame
// has had no render is rendered before the next frame starts (in the
// input's own task, or a task right after it), not in the next frame.
// Each try waits for a frame, sends one valid slider input, and looks at
// data-renders from a message posted right after the input: a try in
// which a frame began before that message proves nothing and is not
// counted (the render could have been the frame's).
func TestE2ERenderInInputTask(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	type try struct {
		FrameFirst bool `json:"frameFirst"`
		Rendered   bool `json:"rendered"`
	}
	// The vocabulary slider, two positions up, then down, and so on: each
	// input a valid config of its own.
	tries := eval[[]try](tb, `(async () => {
		const root = document.getElementById('explorer');
		const el = document.getElementById('slider-vocab_size');
		const out = [];
		for (let i = 0; i < 12; i++) {
			await new Promise(r => requestAnimationFrame(r));
			let frame = false;
			requestAnimationFrame(() => { frame = true; });
			const n = Number(root.dataset.renders);
			el.value = String(Number(el.value) + (i % 2 ? -2 : 2));
			el.dispatchEvent(new Event('input', {bubbles: true}));
			out.push(await new Promise(r => {
				const ch = new MessageChannel();
				ch.port1.onmessage = () => r({frameFirst: frame, rendered: Number(root.dataset.renders) > n});
				ch.port2.postMessage(0);
			}));
			// Let the render land before the next input, whatever the result.
			const deadline = performance.now() + 5000;
			while (Number(root.dataset.renders) <= n && performance.now() < deadline) {
				await new Promise(r => requestAnimationFrame(r));
			}
		}
		return out;
	})()`, chromedp.EvalAwaitPromise)
	counted, rendered := 0, 0
	for _, r := range tries {
		if r.FrameFirst {
			continue
		}
		counted++
		if r.Rendered {
			rendered++
		}
	}
	if counted < 3 {
		t.Fatalf("only %d of %d tries had no frame between the input and the check: %+v", counted, len(tries), tries)
	}
	if rendered != counted {
		t.Errorf("%d of %d inputs were rendered before the next frame; want all (tries: %+v)", rendered, counted, tries)
	}
}
