// Command floor is the smallest page go-app can make: one component that
// renders a heading, routed at "/". make bench builds it for the browser
// with app.wasm's toolchain, tags and flags and compresses it as make wasm
// compresses app.wasm, so the bytes a Headroom visit moves can be judged
// against what any go-app page moves before it does anything of its own
// (BENCHMARKS.md, "the floor").
//
// It may import the standard library and go-app (and what go-app
// imports), nothing of Headroom: a Headroom package here would raise the
// floor it measures.
//
// Natively it serves the page (go-app's handler) on 127.0.0.1, so the
// page can be looked at: build the browser side into web/app.wasm beside
// where it runs,
//
//	GOOS=js GOARCH=wasm go build -o web/app.wasm ./internal/tools/floor
//	go run ./internal/tools/floor -addr 127.0.0.1:8002
package main
