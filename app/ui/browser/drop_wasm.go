//go:build wasm

package browser

// Drop targets: the page's config import (WatchDrops), the Workload
// panel's (WatchDropsOn) and the measured panel's (WatchFileDropsOn) share
// one watcher; each says which drags it takes and what a drop does.

import "github.com/maxence-charriere/go-app/v9/pkg/app"

// WatchDrops makes the whole page a drop target: a dropped file goes to
// onFile, dropped text (not onto a text field, which takes it) to onText.
// It returns the function that stops watching.
func WatchDrops(ctx app.Context, onFile func(app.Context, app.Value), onText func(app.Context, string)) func() {
	// Without preventDefault the browser opens a dropped file, and
	// refuses dropped text outside a text field (which takes it).
	accepts := func(e, dt app.Value) bool {
		return hasType(dt, "Files") || (hasType(dt, "text/plain") && !isTextField(e.Get("target")))
	}
	return watchDrag(app.Window(), false, accepts, fileOrText(ctx, false, onFile, onText))
}

// WatchDropsOn makes the element with the given id a drop target
// for workloads: a dropped file goes to onFile, dropped text to onText
// (except onto a text field, which takes it). The drop goes no further,
// so the page's config import (a drop anywhere else) does not see it.
func WatchDropsOn(ctx app.Context, id string, onFile func(app.Context, app.Value), onText func(app.Context, string)) func() {
	el := app.Window().GetElementByID(id)
	if !el.Truthy() {
		return func() {}
	}
	accepts := func(e, dt app.Value) bool {
		return hasType(dt, "Files") || !isTextField(e.Get("target"))
	}
	return watchDrag(el, true, accepts, fileOrText(ctx, true, onFile, onText))
}

// WatchFileDropsOn makes the element with the given id a drop target for
// files: every dropped file goes to onFiles. The drop goes no further,
// so the page's config import (a drop anywhere else) does not see it;
// text dropped on it is left to the page.
func WatchFileDropsOn(ctx app.Context, id string, onFiles func(app.Context, []app.Value)) func() {
	el := app.Window().GetElementByID(id)
	if !el.Truthy() {
		return func() {}
	}
	accepts := func(_, dt app.Value) bool { return hasType(dt, "Files") }
	return watchDrag(el, true, accepts, func(e, dt app.Value) {
		list := FilesOf(dt) // a DataTransfer has files as an input has
		if len(list) == 0 {
			return
		}
		take(e, true)
		ctx.Dispatch(func(ctx app.Context) { onFiles(ctx, list) })
	})
}

// fileOrText is the drop of a target that takes one file or text: the
// first dropped file goes to onFile; else, unless the drop lands on a text
// field (which takes it), its text to onText. With stop a drop onto a
// text field does not reach the page's config import either.
func fileOrText(ctx app.Context, stop bool, onFile func(app.Context, app.Value), onText func(app.Context, string)) func(e, dt app.Value) {
	return func(e, dt app.Value) {
		if files := dt.Get("files"); files.Truthy() && files.Length() > 0 {
			take(e, stop)
			file := files.Index(0)
			ctx.Dispatch(func(ctx app.Context) { onFile(ctx, file) })
			return
		}
		if isTextField(e.Get("target")) {
			if stop {
				e.Call("stopPropagation") // the text field takes it, not the config import
			}
			return
		}
		if text := dt.Call("getData", "text/plain").String(); text != "" {
			take(e, stop)
			ctx.Dispatch(func(ctx app.Context) { onText(ctx, text) })
		}
	}
}

// watchDrag listens for dragover and drop on target until the function it
// returns is called. A drag that accepts takes may drop here (the
// browser's default is prevented and the effect is a copy); drop gets
// every drop that carries data. With stop, a drag taken here goes no
// further. Each callback recovers its own panics.
func watchDrag(target app.Value, stop bool, accepts func(e, dt app.Value) bool, drop func(e, dt app.Value)) func() {
	over := app.FuncOf(func(_ app.Value, args []app.Value) any {
		_ = catchJS(func() {
			e := args[0]
			if dt := e.Get("dataTransfer"); dt.Truthy() && accepts(e, dt) {
				take(e, stop)
				dt.Set("dropEffect", "copy")
			}
		})
		return nil
	})
	dropped := app.FuncOf(func(_ app.Value, args []app.Value) any {
		_ = catchJS(func() {
			e := args[0]
			if dt := e.Get("dataTransfer"); dt.Truthy() {
				drop(e, dt)
			}
		})
		return nil
	})
	target.Call("addEventListener", "dragover", over)
	target.Call("addEventListener", "drop", dropped)
	return func() {
		_ = catchJS(func() {
			target.Call("removeEventListener", "dragover", over)
			target.Call("removeEventListener", "drop", dropped)
		})
		over.Release()
		dropped.Release()
	}
}

// take keeps a drag or drop for this target: the browser does not open
// it and, with stop, no target around this one sees it.
func take(e app.Value, stop bool) {
	e.Call("preventDefault")
	if stop {
		e.Call("stopPropagation")
	}
}
