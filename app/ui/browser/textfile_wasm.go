//go:build wasm

package browser

// The browser side of a panel that takes a large text file (the Workload
// panel): a file read as bytes (refused unread when its size is refused),
// the text box's text. Drops on the panel are drop_wasm.go's.

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// ReadTextFile reads a File from a picker or a drop as bytes (its
// arrayBuffer, copied once into Go); done gets its name and bytes on the
// UI goroutine. A file whose size check refuses is refused from its
// size, without reading it.
func ReadTextFile(ctx app.Context, file app.Value, check func(size int64) error, done func(app.Context, string, []byte, error)) {
	name := "the file"
	var sizeErr error
	var p app.Value
	if err := catchJS(func() {
		if n := file.Get("name"); n.Truthy() {
			name = n.String()
		}
		if sizeErr = check(int64(file.Get("size").Float())); sizeErr == nil {
			p = file.Call("arrayBuffer")
		}
	}); err != nil {
		done(ctx, name, nil, err)
		return
	}
	if sizeErr != nil {
		done(ctx, name, nil, sizeErr)
		return
	}
	settle(ctx, p, func(ctx app.Context, v app.Value, err error) {
		if err != nil {
			done(ctx, name, nil, err)
			return
		}
		data, err := bytesOf(v)
		done(ctx, name, data, err)
	})
}

// TextOf is the value of the text field with the given id, read when it
// is needed (a pasted workload may be megabytes: not copied on every key).
func TextOf(id string) (text string) {
	_ = catchJS(func() {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			text = el.Get("value").String()
		}
	})
	return text
}

// SetTextOf sets the value of the text field with the given id.
func SetTextOf(id, text string) {
	_ = catchJS(func() {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Set("value", text)
		}
	})
}
