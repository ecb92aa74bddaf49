//go:build !wasm

package main

import (
	"os"

	"headroom/app/cli"
	"headroom/app/ui"
)

func main() {
	registerRoutes() // the server prerenders the page natively
	os.Exit(cli.Run(commands(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// commands lists the subcommands; the first is the default.
func commands() []cli.Command {
	return []cli.Command{
		{Name: "serve", Summary: "serve the explorer (default): -addr 127.0.0.1:8000", Run: cli.Serve(ui.Handler)},
		{Name: "estimate", Summary: "print the estimate of a config: -config FILE (- = stdin) [-format json|text|md]", Run: cli.Estimate},
		{Name: "sweep", Summary: "print the flips along an axis: -config FILE -axis NAME [-from A -to B: else the page's range] [-format json|csv|text]", Run: cli.Sweep},
		{Name: "plot", Summary: "render the chart: -config FILE -axis NAME -from A -to B -o chart.svg|chart.png", Run: cli.Plot},
		{Name: "replay", Summary: "replay a workload against both revisions: -config FILE -workload FILE|- [-format json|md|csv] [-o FILE]", Run: cli.Replay},
		{Name: "measure", Summary: "the measured peak of a PyTorch memory snapshot beside both estimates, or ART planner-miss reports: -snapshot FILE [-config FILE] | -planner-miss FILE... [-format json|md] [-o FILE]", Run: cli.Measure},
		{Name: "params", Summary: "print a model's parameter counts, and resident bytes with a resident group: -config FILE | -hf config.json [-expert_parallel N] [-format text|json]", Run: cli.Params},
		{Name: "map", Summary: "print the decision map JSON over two axes, or draw it: -config FILE -x AXIS -xfrom A -xto B -y AXIS -yfrom A -yto B [-o map.svg|map.png]", Run: cli.Map},
		{Name: "static", Summary: "write a static site that runs under any path prefix: -o DIR", Run: cli.Static(ui.Handler)},
	}
}
