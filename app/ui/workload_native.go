//go:build !wasm

package ui

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// Outside the browser there is no file to read, no drop and no text box:
// each says so or does nothing.

func readWorkloadFile(ctx app.Context, _ app.Value, done func(app.Context, string, []byte, error)) {
	done(ctx, "the file", nil, errNoBrowser)
}

func watchWorkloadDrops(app.Context, string, func(app.Context, app.Value), func(app.Context, string)) func() {
	return func() {}
}

func textOf(string) string { return "" }

func setTextOf(string, string) {}
