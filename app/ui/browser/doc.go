// Package browser holds the page's effects on the browser, each with a
// native stand-in (the _native.go files, built when not wasm) so that
// the server's prerender and go test run the same callers: the clipboard
// (WriteClipboard, SelectText), downloads (SaveFile, File, FileName),
// files and drops (ReadFile, ReadTextFile, ReadSlice, FileInfo, FileOf,
// FilesOf, ClearFileInput, WatchFileDropsOn,
// WatchDrops, WatchDropsOn, TextOf, SetTextOf), timers and the clock
// (LaterOnUI, NowMs, Mark: a named moment of the page's timeline), the
// server's prerendered page (HoldServerPage, ReleaseServerPage: its nodes
// freed once go-app has replaced it), the address bar (PageURL, ReplaceQuery,
// PushQuery) and the colour scheme (Theme). Natively each does nothing,
// says so (ErrNoBrowser) or answers as a light page would.
//
// It may import the standard library, go-app, syscall/js and the
// estimator (ReadFile refuses a file past estimator.MaxInputBytes); never
// app/chart, gonum or any other package of app/.
package browser
