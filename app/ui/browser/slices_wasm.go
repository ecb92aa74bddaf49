//go:build wasm

package browser

// The browser side of a panel that reads big binary files in slices (the
// Observed peaks panel's snapshots and reports): a file's name and size,
// one slice's bytes, every file of a picker or a drop. Drops on the panel
// are drop_wasm.go's.

import (
	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

// FileInfo is a File's name ("the file" when it has none) and size in
// bytes.
func FileInfo(file app.Value) (name string, size int64) {
	name = "the file"
	_ = catchJS(func() {
		if n := file.Get("name"); n.Truthy() {
			name = n.String()
		}
		size = int64(file.Get("size").Float())
	})
	return name, size
}

// ReadSlice reads bytes [from, to) of a File (its slice's arrayBuffer,
// copied once into Go); done gets them on the UI goroutine. Each slice
// is a task of its own: between two, the browser paints and takes input.
func ReadSlice(ctx app.Context, file app.Value, from, to int64, done func(app.Context, []byte, error)) {
	var p app.Value
	if err := catchJS(func() { p = file.Call("slice", float64(from), float64(to)).Call("arrayBuffer") }); err != nil {
		done(ctx, nil, err)
		return
	}
	settle(ctx, p, func(ctx app.Context, v app.Value, err error) {
		if err != nil {
			done(ctx, nil, err)
			return
		}
		data, err := bytesOf(v)
		done(ctx, data, err)
	})
}

// FilesOf is every file of a file input (a multiple one gives several).
func FilesOf(input app.Value) []app.Value {
	var out []app.Value
	_ = catchJS(func() {
		files := input.Get("files")
		if !files.Truthy() {
			return
		}
		for i := 0; i < files.Length(); i++ {
			out = append(out, files.Index(i))
		}
	})
	return out
}
