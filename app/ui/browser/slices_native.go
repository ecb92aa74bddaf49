//go:build !wasm

package browser

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// Outside the browser there is no file to slice and no drop: each says so
// or does nothing.

func FileInfo(app.Value) (string, int64) { return "the file", 0 }

func ReadSlice(ctx app.Context, _ app.Value, _, _ int64, done func(app.Context, []byte, error)) {
	done(ctx, nil, ErrNoBrowser)
}

func FilesOf(app.Value) []app.Value { return nil }

func WatchFileDropsOn(app.Context, string, func(app.Context, []app.Value)) func() {
	return func() {}
}
