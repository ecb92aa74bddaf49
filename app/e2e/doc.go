// Package e2e holds the browser tests of the whole page and nothing
// else: the explorer (package main, headroom/app) built to WebAssembly
// as make wasm builds it, served in-process by app/server with the real
// go-app handler, and driven in Debian's headless Chromium with
// chromedp. e2e_test.go is the harness (and the DOM contract the tests
// rely on), e2e_wait_test.go the one way a test waits; the bench-tagged
// files are make bench's figures.
//
// It may import anything of the module and chromedp; nothing imports
// it. The tests derive their expected figures from the estimator and
// read the page's own names through app/ui, never through package main.
package e2e
