//go:build !wasm

package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"

	"github.com/maxence-charriere/go-app/v9/pkg/app"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:8002", "address to serve the page on")
	flag.Parse()
	route()
	http.Handle("/", &app.Handler{Name: "floor", Title: "go-app's floor", Description: "The smallest go-app page"})
	fmt.Fprintf(os.Stderr, "floor: serving http://%s/ (web/app.wasm from the working directory)\n", *addr)
	if err := http.ListenAndServe(*addr, nil); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}
