// Package browser holds the page's effects on the browser, each with a
// native stand-in (the _native.go files, built when not wasm) so that
// the server's prerender and go test run the same callers: the clipboard
// (WriteClipboard, SelectText), downloads (SaveFile, File, FileName),
// files and drops (ReadFile, ReadTextFile, FileOf, ClearFileInput,
// WatchDrops, WatchDropsOn, TextOf, SetTextOf), timers and the clock
// (LaterOnUI, NowMs) and the address bar (PageURL, ReplaceQuery,
// PushQuery). Natively each does nothing or says so (ErrNoBrowser).
//
// The colour scheme's listener stays with the explorer (app/ui's
// theme_wasm.go), which redraws the chart in its palette.
//
// It may import the standard library, go-app, syscall/js and the
// estimator (ReadFile refuses a file past estimator.MaxInputBytes); never
// app/chart, gonum or any other package of app/.
package browser
