//go:build !wasm

package browser

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// Outside the browser there is no file to read, no drop and no text box:
// each says so or does nothing.

func ReadTextFile(ctx app.Context, _ app.Value, _ func(int64) error, done func(app.Context, string, []byte, error)) {
	done(ctx, "the file", nil, ErrNoBrowser)
}

func WatchDropsOn(app.Context, string, func(app.Context, app.Value), func(app.Context, string)) func() {
	return func() {}
}

func TextOf(string) string { return "" }

func SetTextOf(string, string) {}
