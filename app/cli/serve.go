package cli

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

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/server"
)

// Serve returns the serve command: it serves the explorer (the files of
// web/ and the page that newHandler describes, see app/server) until
// interrupted.
func Serve(newHandler func() *app.Handler) func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		return runServe(newHandler, args, stdout, stderr)
	}
}

func runServe(newHandler func() *app.Handler, args []string, stdout, stderr io.Writer) int {
	flags := newFlags("serve", stderr)
	addr := flags.String("addr", "127.0.0.1:8000", "address to listen on (host:port)")
	webFlag := flags.String("web", "", "directory of the web files (default: web/ next to the executable, else the project's web/)")
	if err := parseFlags(flags, args); err != nil {
		return fail(stderr, "serve", err)
	}
	webDir, err := server.FindWebDir(*webFlag)
	if err != nil {
		return fail(stderr, "serve", err)
	}
	if _, err := os.Stat(filepath.Join(webDir, "app.wasm")); err != nil {
		fmt.Fprintf(stderr, "headroom serve: warning: %s/app.wasm is missing; run make wasm\n", webDir)
	}
	s, err := server.New(webDir, newHandler())
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
	fmt.Fprintf(stdout, "headroom: serving http://%s/ (the explorer; web files: %s); Ctrl-C stops, headroom -h lists the commands\n", ln.Addr(), webDir)
	if err := server.ServeUntil(ctx, server.NewHTTPServer(s, stderr), ln); err != nil {
		fmt.Fprintf(stderr, "headroom serve: %v\n", err)
		return 1
	}
	fmt.Fprintln(stdout, "headroom: stopped")
	return 0
}

// Static returns the static command: it writes a complete static site,
// go-app's pages and scripts for the page that newHandler describes, and
// every file of web/ (app.wasm included). The site runs from any static
// file server under any path prefix (see server.WriteStaticSite).
func Static(newHandler func() *app.Handler) func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return func(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
		return runStatic(newHandler, args, stdout, stderr)
	}
}

func runStatic(newHandler func() *app.Handler, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("static", stderr)
	out := fs.String("o", "", "directory to write the site into (required)")
	webFlag := fs.String("web", "", "the web/ directory to copy (default: found as serve finds it)")
	pageURL := fs.String("url", "", "the site's public URL, for the og:url preview tag (default: none)")
	if err := parseFlags(fs, args); err != nil {
		return fail(stderr, "static", err)
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
	if err := server.WriteStaticSite(*out, webDir, *pageURL, newHandler()); err != nil {
		fmt.Fprintf(stderr, "headroom static: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "wrote the static site to %s\n", *out)
	return 0
}
