// Command headroom is Headroom's single binary: in the browser (compiled to
// WebAssembly) it is the explorer's UI; natively it serves that UI and runs
// the command line (estimate, sweep, plot, static).
package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
)

func main() {
	registerRoutes()
	runWhenOnBrowser() // never returns in the browser
	// The command line is for native builds. GOARCH is a constant, so the
	// WebAssembly build drops run and all it reaches (the server, net/http,
	// crypto/tls, the PNG renderer...): half of app.wasm, which the browser
	// would download and compile without ever calling it.
	if runtime.GOARCH == "wasm" {
		return
	}
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// command is one subcommand of the binary.
type command struct {
	name    string
	summary string
	run     func(args []string, stdin io.Reader, stdout, stderr io.Writer) int
}

// commands lists the subcommands; the first is the default.
func commands() []command {
	return []command{
		{"serve", "serve the explorer (default): -addr 127.0.0.1:8000", runServe},
		{"estimate", "print the estimate JSON of a config: -config FILE (- = stdin)", runEstimate},
		{"sweep", "print the flips JSON along an axis: -config FILE -axis NAME -from A -to B", runSweep},
		{"plot", "render the chart: -config FILE -axis NAME -from A -to B -o chart.svg|chart.png", runPlot},
		{"replay", "replay a workload against both revisions: -config FILE -workload FILE|- [-format json|md|csv] [-o FILE]", runReplay},
		{"map", "print the decision map JSON over two axes, or draw it: -config FILE -x AXIS -xfrom A -xto B -y AXIS -yfrom A -yto B [-o map.svg|map.png]", runMap},
		{"static", "write a static site that runs under any path prefix: -o DIR", runStatic},
	}
}

// run executes the command line and returns the exit status: 0 ok, 1 a
// failure while running, 2 bad usage or a bad config.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	name := "serve"
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		name, args = args[0], args[1:]
	}
	for _, c := range commands() {
		if c.name == name {
			return c.run(args, stdin, stdout, stderr)
		}
	}
	if name == "help" {
		usage(stdout)
		return 0
	}
	fmt.Fprintf(stderr, "headroom: unknown command %q\n", name)
	usage(stderr)
	return 2
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: headroom [command] [flags]")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
}
