package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"headroom/app/server"
	"headroom/app/ui"
)

func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	flags := newFlags("serve", stderr)
	addr := flags.String("addr", "127.0.0.1:8000", "address to listen on (host:port)")
	webFlag := flags.String("web", "", "directory of the web files (default: web/ next to the executable, else the project's web/)")
	if err := flags.Parse(args); err != nil {
		return 2
	}
	if flags.NArg() > 0 {
		fmt.Fprintf(stderr, "headroom serve: unexpected argument %q\n", flags.Arg(0))
		return 2
	}
	webDir, err := server.FindWebDir(*webFlag)
	if err != nil {
		return fail(stderr, "serve", err)
	}
	if _, err := os.Stat(filepath.Join(webDir, "app.wasm")); err != nil {
		fmt.Fprintf(stderr, "headroom serve: warning: %s/app.wasm is missing; run make wasm\n", webDir)
	}
	s, err := server.New(webDir, ui.Handler())
	if err != nil {
		return fail(stderr, "serve", err)
	}
	defer s.Close()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintf(stderr, "headroom serve: %v\n", err)
		return 1
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fmt.Fprintf(stdout, "headroom: serving http://%s/ (web files: %s); Ctrl-C stops\n", ln.Addr(), webDir)
	if err := server.ServeUntil(ctx, server.NewHTTPServer(s, stderr), ln); err != nil {
		fmt.Fprintf(stderr, "headroom serve: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, "headroom: stopped")
	return 0
}

// runStatic writes a complete static site: go-app's pages and scripts, and
// every file of web/ (app.wasm included). The site runs from any static
// file server under any path prefix, so every URL in it is relative and the
// router learns its prefix from where app.js was loaded.
func runStatic(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("static", stderr)
	out := fs.String("o", "", "directory to write the site into (required)")
	webFlag := fs.String("web", "", "the web/ directory to copy (default: found as serve finds it)")
	pageURL := fs.String("url", "", "the site's public URL, for the og:url preview tag (default: none)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *out == "" {
		return fail(stderr, "static", errors.New("-o: is required (the directory to write the site into)"))
	}
	webDir, err := server.FindWebDir(*webFlag)
	if err != nil {
		return fail(stderr, "static", err)
	}
	if _, err := os.Stat(filepath.Join(webDir, "app.wasm")); err != nil {
		return fail(stderr, "static", fmt.Errorf("%s has no app.wasm; run make wasm first", webDir))
	}
	if err := server.WriteStaticSite(*out, webDir, *pageURL, ui.Handler()); err != nil {
		fmt.Fprintf(stderr, "headroom static: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote the static site to %s\n", *out)
	return 0
}
