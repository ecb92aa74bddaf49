package main

import "io"

// registerRoutes declares the explorer's pages to go-app. (Filled in by
// the UI work.)
func registerRoutes() {}

// runWhenOnBrowser hands control to go-app in the browser.
func runWhenOnBrowser() {}

func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	return 0
}
