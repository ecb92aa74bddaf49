//go:build wasm

package browser

// The browser side of sharing: the clipboard, downloads through Blob
// URLs, the PNG drawn by the browser from the SVG, and files read from a
// picker or a drop. Each JavaScript callback recovers its own panics (a
// panic there would stop the whole app) and hands its result to the UI
// goroutine with ctx.Dispatch.

import (
	"errors"
	"fmt"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/estimator"
)

// PageURL is the page's URL with the given query: what the address bar
// shows once the explorer wrote it.
func PageURL(query string) string {
	loc := app.Window().Get("location")
	u := loc.Get("origin").String() + loc.Get("pathname").String()
	if query != "" {
		u += "?" + query
	}
	return u
}

// WriteClipboard puts text on the clipboard; done gets nil once it is
// there, or why the browser refused (no Clipboard API, no permission, no
// focus).
func WriteClipboard(ctx app.Context, text string, done func(app.Context, error)) {
	cb := app.Window().Get("navigator").Get("clipboard")
	if !cb.Truthy() {
		done(ctx, errors.New("this browser offers no clipboard to the page"))
		return
	}
	var p app.Value
	if err := catchJS(func() { p = cb.Call("writeText", text) }); err != nil {
		done(ctx, err)
		return
	}
	settle(ctx, p, func(ctx app.Context, _ app.Value, err error) { done(ctx, err) })
}

// SelectText selects the text of the input with the given id, for the
// user to copy when the clipboard refused.
func SelectText(id string) {
	_ = catchJS(func() {
		if el := app.Window().GetElementByID(id); el.Truthy() {
			el.Call("focus")
			el.Call("select")
		}
	})
}

// SaveFile offers f as a download. A PNG is drawn first: the browser
// draws f's SVG on a canvas of f's size and encodes it (app.wasm carries
// no PNG encoder). done runs on the UI goroutine.
func SaveFile(ctx app.Context, f File, done func(app.Context, error)) {
	if f.Width > 0 {
		drawPNG(ctx, f, done)
		return
	}
	done(ctx, catchJS(func() { download(newBlob(f.Data, f.Mime), f.Name) }))
}

// newBlob makes a Blob of data.
func newBlob(data []byte, mime string) app.Value {
	w := app.Window()
	u8 := w.Get("Uint8Array").New(len(data))
	app.CopyBytesToJS(u8, data)
	parts := w.Get("Array").New()
	parts.Call("push", u8)
	return w.Get("Blob").New(parts, map[string]any{"type": mime})
}

// download saves blob as a file named name: a click on an <a download>
// of the blob's URL, which is revoked once the download has it.
func download(blob app.Value, name string) {
	w := app.Window()
	u := w.Get("URL").Call("createObjectURL", blob)
	doc := w.Get("document")
	a := doc.Call("createElement", "a")
	a.Set("href", u)
	a.Set("download", name)
	a.Set("hidden", true)
	doc.Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	later(60000, func() { w.Get("URL").Call("revokeObjectURL", u) })
}

// drawPNG draws f.Data (an SVG with a size, chart.Sized) on an
// f.Width x f.Height canvas with a white ground and saves it as a PNG.
// The image loads from a blob: URL, which the server's CSP allows for
// images (img-src).
func drawPNG(ctx app.Context, f File, done func(app.Context, error)) {
	w := app.Window()
	var svgURL, img app.Value
	if err := catchJS(func() {
		svgURL = w.Get("URL").Call("createObjectURL", newBlob(f.Data, "image/svg+xml"))
		img = w.Get("Image").New(f.Width, f.Height)
	}); err != nil {
		done(ctx, err)
		return
	}
	var onLoad, onError app.Func
	finish := func(err error, then func() error) {
		onLoad.Release()
		onError.Release()
		if err == nil {
			err = catchJS(func() {
				if e := then(); e != nil {
					panic(e)
				}
			})
		}
		_ = catchJS(func() { w.Get("URL").Call("revokeObjectURL", svgURL) })
		if err != nil {
			ctx.Dispatch(func(ctx app.Context) { done(ctx, err) })
		}
	}
	onError = app.FuncOf(func(app.Value, []app.Value) any {
		finish(errors.New("the browser could not draw the chart's SVG"), nil)
		return nil
	})
	onLoad = app.FuncOf(func(app.Value, []app.Value) any {
		finish(nil, func() error {
			canvas := w.Get("document").Call("createElement", "canvas")
			canvas.Set("width", f.Width)
			canvas.Set("height", f.Height)
			g := canvas.Call("getContext", "2d")
			if !g.Truthy() {
				return errors.New("the browser offers no 2D canvas")
			}
			g.Set("fillStyle", "#ffffff")
			g.Call("fillRect", 0, 0, f.Width, f.Height)
			g.Call("drawImage", img, 0, 0, f.Width, f.Height)
			var onBlob app.Func
			onBlob = app.FuncOf(func(_ app.Value, args []app.Value) any {
				onBlob.Release()
				err := catchJS(func() {
					if len(args) == 0 || !args[0].Truthy() {
						panic(errors.New("the browser could not encode the PNG"))
					}
					download(args[0], f.Name)
				})
				ctx.Dispatch(func(ctx app.Context) { done(ctx, err) })
				return nil
			})
			if err := catchJS(func() { canvas.Call("toBlob", onBlob, "image/png") }); err != nil {
				onBlob.Release()
				return err
			}
			return nil
		})
		return nil
	})
	img.Set("onload", onLoad)
	img.Set("onerror", onError)
	img.Set("src", svgURL)
}

// ReadFile reads a File from a picker or a drop; done gets its bytes.
// A file larger than any config is refused without reading it.
func ReadFile(ctx app.Context, file app.Value, done func(app.Context, []byte, error)) {
	var size int
	var p app.Value
	if err := catchJS(func() {
		size = file.Get("size").Int()
		if size <= estimator.MaxInputBytes {
			p = file.Call("text")
		}
	}); err != nil {
		done(ctx, nil, err)
		return
	}
	if size > estimator.MaxInputBytes {
		done(ctx, nil, fmt.Errorf("the file has %s bytes, more than the %s a config may have",
			estimator.Group(int64(size)), estimator.Group(estimator.MaxInputBytes)))
		return
	}
	settle(ctx, p, func(ctx app.Context, v app.Value, err error) {
		if err != nil {
			done(ctx, nil, err)
			return
		}
		done(ctx, []byte(v.String()), nil)
	})
}

// hasType reports whether a drag carries data of a type ("Files" for
// files).
func hasType(dt app.Value, typ string) bool {
	types := dt.Get("types")
	if !types.Truthy() {
		return false
	}
	for i := 0; i < types.Length(); i++ {
		if types.Index(i).String() == typ {
			return true
		}
	}
	return false
}

// isTextField reports whether a drop's target takes text itself.
func isTextField(target app.Value) bool {
	if !target.Truthy() {
		return false
	}
	tag := target.Get("tagName")
	return tag.Truthy() && (tag.String() == "TEXTAREA" || tag.String() == "INPUT")
}

// FileOf is the first file a file input holds, if any.
func FileOf(input app.Value) (app.Value, bool) {
	var file app.Value
	err := catchJS(func() {
		if files := input.Get("files"); files.Truthy() && files.Length() > 0 {
			file = files.Index(0)
		}
	})
	return file, err == nil && file != nil && file.Truthy()
}

// ClearFileInput empties a file input, so picking the same file again
// still sends a change.
func ClearFileInput(input app.Value) { _ = catchJS(func() { input.Set("value", "") }) }

// settle waits for a promise; done runs on the UI goroutine with its value
// or its rejection.
func settle(ctx app.Context, p app.Value, done func(app.Context, app.Value, error)) {
	var onOK, onErr app.Func
	release := func() {
		onOK.Release()
		onErr.Release()
	}
	onOK = app.FuncOf(func(_ app.Value, args []app.Value) any {
		release()
		var v app.Value = app.Undefined()
		if len(args) > 0 {
			v = args[0]
		}
		ctx.Dispatch(func(ctx app.Context) { done(ctx, v, nil) })
		return nil
	})
	onErr = app.FuncOf(func(_ app.Value, args []app.Value) any {
		release()
		err := errors.New("refused")
		if len(args) > 0 {
			err = errors.New(jsErrorText(args[0]))
		}
		ctx.Dispatch(func(ctx app.Context) { done(ctx, app.Undefined(), err) })
		return nil
	})
	if err := catchJS(func() { p.Call("then", onOK, onErr) }); err != nil {
		release()
		done(ctx, app.Undefined(), err)
	}
}

// later runs fn after ms milliseconds, on a JavaScript timer.
func later(ms int, fn func()) {
	var f app.Func
	f = app.FuncOf(func(app.Value, []app.Value) any {
		f.Release()
		_ = catchJS(fn)
		return nil
	})
	app.Window().Call("setTimeout", f, ms)
}

// LaterOnUI runs fn on the UI goroutine after ms milliseconds.
func LaterOnUI(ctx app.Context, ms int, fn func(app.Context)) {
	later(ms, func() { ctx.Dispatch(fn) })
}

// bytesOf copies an ArrayBuffer into Go, once.
func bytesOf(buf app.Value) (data []byte, err error) {
	err = catchJS(func() {
		u8 := app.Window().Get("Uint8Array").New(buf)
		data = make([]byte, u8.Length())
		app.CopyBytesToGo(data, u8)
	})
	return data, err
}

// catchJS runs fn and returns a panic (a JavaScript exception comes back
// from syscall/js as one) as an error.
func catchJS(fn func()) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = e
			} else {
				err = fmt.Errorf("%v", r)
			}
		}
	}()
	fn()
	return nil
}

// jsErrorText is a JavaScript error's message.
func jsErrorText(v app.Value) (text string) {
	text = "refused"
	_ = catchJS(func() {
		if m := v.Get("message"); m.Truthy() {
			text = m.String()
		} else {
			text = v.String()
		}
	})
	return text
}
