//go:build !wasm

package ui

import (
	"errors"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Outside the browser (go test, the server's pre-render) there is no
// clipboard, no download and no file to read: each says so.

var errNoBrowser = errors.New("only in the browser")

func pageURL(query string) string {
	if query == "" {
		return "/"
	}
	return "/?" + query
}

func writeClipboard(ctx app.Context, _ string, done func(app.Context, error)) {
	done(ctx, errNoBrowser)
}

func selectText(string) {}

func saveFile(ctx app.Context, _ exported, done func(app.Context, error)) { done(ctx, errNoBrowser) }

func readFile(ctx app.Context, _ app.Value, done func(app.Context, []byte, error)) {
	done(ctx, nil, errNoBrowser)
}

func watchDrops(app.Context, func(app.Context, app.Value), func(app.Context, string)) func() {
	return func() {}
}

func fileOf(app.Value) (app.Value, bool) { return nil, false }

func clearFileInput(app.Value) {}

func laterOnUI(app.Context, int, func(app.Context)) {}
