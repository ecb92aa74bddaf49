//go:build wasm

package browser

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// darkQuery is the media query of the dark theme (web/headroom.css).
const darkQuery = "(prefers-color-scheme: dark)"

// Theme follows the page's colour scheme.
type Theme struct {
	change app.Func // the media query's listener, set on the first Dark
}

// Dark reports whether the page's colour scheme is dark. The first call
// listens for a change of scheme, which then calls onChange (from the
// browser's event, not the UI goroutine).
func (t *Theme) Dark(onChange func()) bool {
	mq := app.Window().Call("matchMedia", darkQuery)
	if t.change == nil {
		t.change = app.FuncOf(func(app.Value, []app.Value) any {
			onChange()
			return nil
		})
		mq.Call("addEventListener", "change", t.change)
	}
	return mq.Get("matches").Bool()
}
