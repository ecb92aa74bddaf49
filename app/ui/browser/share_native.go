//go:build !wasm

package browser

import (
	"errors"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// Outside the browser (go test, the server's pre-render) there is no
// clipboard, no download and no file to read: each says so.

var ErrNoBrowser = errors.New("only in the browser")

func PageURL(query string) string {
	if query == "" {
		return "/"
	}
	return "/?" + query
}

func WriteClipboard(ctx app.Context, _ string, done func(app.Context, error)) {
	done(ctx, ErrNoBrowser)
}

func SelectText(string) {}

func SaveFile(ctx app.Context, _ File, done func(app.Context, error)) { done(ctx, ErrNoBrowser) }

func ReadFile(ctx app.Context, _ app.Value, done func(app.Context, []byte, error)) {
	done(ctx, nil, ErrNoBrowser)
}

func WatchDrops(app.Context, func(app.Context, app.Value), func(app.Context, string)) func() {
	return func() {}
}

func FileOf(app.Value) (app.Value, bool) { return nil, false }

func ClearFileInput(app.Value) {}

func LaterOnUI(app.Context, int, func(app.Context)) {}
