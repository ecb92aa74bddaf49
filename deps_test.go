package headroom

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// The layers of the repository, in the manner of Go's own
// go/build/deps_test.go: each rule names the packages it governs and what
// their dependencies (all of them, through any number of imports, as
// go list -deps gives them) may or may not be. Each package's doc.go says
// in words what it may import. A rule's packages are matched
// by import path: "headroom/app/ui/..." is app/ui and every package under
// it, so a package split out of app/ui later is held to the rule without
// an edit here.
//
// This table is where the layering rules are stated; README and
// app/doc.go point here rather than repeat them.
//
// The rules are checked for the native build and for the browser's
// (GOOS=js GOARCH=wasm), whose _wasm.go files import what the native
// ones do not.

// depRule is one rule: for every package matching pkgs, every dependency
// must match one of allow (when allow is set) and none of deny.
type depRule struct {
	pkgs  string
	allow []string // "std": the standard library; else path patterns
	deny  []string // path patterns
	// oneModule lets the dependencies that allow does not match come
	// from a single module outside the standard library and this one.
	oneModule bool
	// required: the rule governs a package that must exist (a rule for a
	// package not written yet is optional).
	required bool
}

const (
	goApp  = "github.com/maxence-charriere/go-app/..."
	gonum  = "gonum.org/v1/plot/..."
	ui     = "headroom/app/ui/..."
	server = "headroom/app/server/..."
	cli    = "headroom/app/cli/..."
	chart  = "headroom/app/chart/..."
)

var depRules = []depRule{
	// The model: the standard library and its own parts only.
	{pkgs: "headroom/estimator/...", allow: []string{"std", "headroom/estimator/..."}, required: true},
	// Around the model, its adapters: the Hugging Face import and the URL
	// codec read and write configs through the estimator's API and
	// nothing else (not each other).
	{pkgs: "headroom/estimator/hfconfig", allow: []string{"std", "headroom/estimator", "headroom/estimator/internal/..."}, required: true},
	{pkgs: "headroom/estimator/urlquery", allow: []string{"std", "headroom/estimator", "headroom/estimator/internal/..."}, required: true},
	// The chart draws estimator results; it knows no UI and no server.
	{pkgs: chart, deny: []string{goApp, ui, server, cli}, required: true},
	// The server serves files; it never plots or builds components.
	{pkgs: server, deny: []string{gonum, chart, ui, cli}, required: true},
	// The page never reaches the server or the command line.
	{pkgs: ui, deny: []string{server, cli}, required: true},
	// The page model is plain Go, tested natively: no go-app, no browser.
	{pkgs: "headroom/app/ui/page/...", deny: []string{goApp, gonum, chart, "headroom/app/report/...", server, cli, "headroom/app/ui", "headroom/app/ui/widget/...", "headroom/app/ui/browser/...", "headroom/app/ui/workload/...", "headroom/app/ui/chartview/...", "headroom/app/ui/mapview/...", "headroom/app/ui/measured/..."}, required: true},
	// The generic controls know no feature of the page and draw no chart.
	{pkgs: "headroom/app/ui/widget/...", deny: []string{gonum, chart, "headroom/app/report/...", server, cli, "headroom/app/ui", "headroom/app/ui/workload/...", "headroom/app/ui/chartview/...", "headroom/app/ui/mapview/...", "headroom/app/ui/measured/..."}, required: true},
	// The browser's effects: syscall/js and its native stand-ins, nothing of the page.
	{pkgs: "headroom/app/ui/browser/...", deny: []string{gonum, chart, "headroom/app/report/...", server, cli, "headroom/app/ui", "headroom/app/ui/page/...", "headroom/app/ui/widget/...", "headroom/app/ui/workload/...", "headroom/app/ui/chartview/...", "headroom/app/ui/mapview/...", "headroom/app/ui/measured/..."}, required: true},
	// The Workload panel: never the page that composes it.
	{pkgs: "headroom/app/ui/workload/...", deny: []string{server, cli, "headroom/app/ui", "headroom/app/ui/chartview/...", "headroom/app/ui/mapview/...", "headroom/app/ui/measured/..."}, required: true},
	// The chart's room (the chart view, its pointer and its sweep cache):
	// never the page that composes it, nor another feature's room.
	{pkgs: "headroom/app/ui/chartview/...", deny: []string{server, cli, "headroom/app/ui", "headroom/app/ui/workload/...", "headroom/app/ui/mapview/...", "headroom/app/ui/measured/..."}, required: true},
	// The map's room: the chart's room for the SVG's labelling, no other.
	{pkgs: "headroom/app/ui/mapview/...", deny: []string{server, cli, "headroom/app/ui", "headroom/app/ui/workload/...", "headroom/app/ui/measured/..."}, required: true},
	// The measured peaks' room: measure and the page's parts, no other room.
	{pkgs: "headroom/app/ui/measured/...", deny: []string{server, cli, "headroom/app/ui", "headroom/app/ui/workload/...", "headroom/app/ui/chartview/...", "headroom/app/ui/mapview/..."}, required: true},
	// The command line never builds the page.
	{pkgs: cli, deny: []string{ui}, required: true},
	// The exports a person copies: the model and the standard library.
	{pkgs: "headroom/app/report/...", allow: []string{"std", "headroom/estimator/...", "headroom/app/report/..."}, required: true},
	// The embedded presets: anything may import them.
	{pkgs: "headroom/assets", allow: []string{"std"}, required: true},
	// go-app's floor: the smallest go-app page, whose size make bench
	// judges app.wasm's by; anything of Headroom's would raise it. (go-app
	// imports github.com/google/uuid.)
	{pkgs: "headroom/internal/tools/floor", allow: []string{"std", goApp, "github.com/google/uuid", "headroom/internal/tools/floor"}, required: true},
	// Measurements: the model, the standard library, one pickle reader.
	{pkgs: "headroom/measure/...", allow: []string{"std", "headroom/estimator/...", "headroom/measure/..."}, oneModule: true},
}

// listedPackage is what go list -json says of a package.
type listedPackage struct {
	ImportPath string
	Name       string
	Dir        string
	GoFiles    []string
	Standard   bool
	Deps       []string
	Module     *struct{ Path string }
	Error      *struct{ Err string }
}

// goList lists every package of the module with its dependencies, and
// the dependencies themselves, for the environment env added to ours.
func goList(t *testing.T, env ...string) map[string]*listedPackage {
	t.Helper()
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if p, err := exec.LookPath("go"); err == nil {
		goTool = p
	}
	cmd := exec.Command(goTool, "list", "-deps", "-json=ImportPath,Name,Dir,GoFiles,Standard,Deps,Module,Error", "./...")
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v\n%s", env, err, stderr.Bytes())
	}
	pkgs := map[string]*listedPackage{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p listedPackage
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("go list %v: %v", env, err)
		}
		if p.Error != nil {
			t.Errorf("go list %v: %s: %s", env, p.ImportPath, p.Error.Err)
		}
		pkgs[p.ImportPath] = &p
	}
	return pkgs
}

// matchPath reports whether path matches pattern: an import path, or one
// ending in "/..." for the path and everything under it.
func matchPath(pattern, path string) bool {
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return path == base || strings.HasPrefix(path, base+"/")
	}
	return path == pattern
}

// depProblems checks the rules against pkgs and returns what breaks them,
// one line each, and the rules that governed no package.
func depProblems(rules []depRule, pkgs map[string]*listedPackage) (problems []string, unused []string) {
	paths := make([]string, 0, len(pkgs))
	for path := range pkgs {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for _, r := range rules {
		governed := 0
		for _, path := range paths {
			p := pkgs[path]
			if p.Standard || !matchPath(r.pkgs, path) {
				continue
			}
			governed++
			modules := map[string]bool{}
			for _, dep := range p.Deps {
				d := pkgs[dep]
				std := d != nil && d.Standard
				for _, deny := range r.deny {
					if matchPath(deny, dep) {
						problems = append(problems, path+" must not depend on "+dep+" (rule for "+r.pkgs+")")
					}
				}
				if r.allow == nil {
					continue
				}
				allowed := slices.ContainsFunc(r.allow, func(a string) bool {
					return a == "std" && std || a != "std" && matchPath(a, dep)
				})
				switch {
				case allowed:
				case r.oneModule && d != nil && d.Module != nil && d.Module.Path != "headroom":
					modules[d.Module.Path] = true
				default:
					problems = append(problems, path+" must not depend on "+dep+" (rule for "+r.pkgs+": only "+strings.Join(r.allow, ", ")+")")
				}
			}
			if len(modules) > 1 {
				problems = append(problems, path+" depends on more than one module outside the standard library: "+strings.Join(slices.Sorted(maps.Keys(modules)), ", "))
			}
		}
		if governed == 0 {
			unused = append(unused, r.pkgs)
		}
	}
	return problems, unused
}

// TestDependencyRules: every package keeps to its layer, natively and in
// the browser's build.
func TestDependencyRules(t *testing.T) {
	for _, build := range []struct {
		name string
		env  []string
	}{
		{"native", nil},
		{"wasm", []string{"GOOS=js", "GOARCH=wasm"}},
	} {
		t.Run(build.name, func(t *testing.T) {
			pkgs := goList(t, build.env...)
			problems, unused := depProblems(depRules, pkgs)
			for _, p := range problems {
				t.Error(p)
			}
			for _, r := range depRules {
				if r.required && slices.Contains(unused, r.pkgs) {
					t.Errorf("no package matches %s: the rule guards nothing (renamed?)", r.pkgs)
				}
			}
			// Guard: the listing is the module's, with its dependencies.
			if pkgs["headroom/estimator"] == nil || pkgs["fmt"] == nil || len(pkgs) < 100 {
				t.Fatalf("go list gave %d packages, without the estimator or fmt", len(pkgs))
			}
		})
	}
}

// TestDependencyRulesCatch: the checker finds a planted breach of each
// kind of rule, and lets a lawful graph through.
func TestDependencyRulesCatch(t *testing.T) {
	mod := func(path string) *struct{ Path string } { return &struct{ Path string }{path} }
	pkgs := map[string]*listedPackage{
		"fmt":                                  {ImportPath: "fmt", Standard: true},
		"syscall/js":                           {ImportPath: "syscall/js", Standard: true},
		"headroom/estimator":                   {ImportPath: "headroom/estimator", Deps: []string{"fmt", "headroom/estimator/internal/termexpr"}},
		"headroom/estimator/internal/termexpr": {ImportPath: "headroom/estimator/internal/termexpr", Deps: []string{"fmt"}},
		"headroom/estimator/urlquery":          {ImportPath: "headroom/estimator/urlquery", Deps: []string{"headroom/estimator", "headroom/estimator/internal/termexpr", "headroom/estimator/hfconfig"}},
		"headroom/app/chart":                   {ImportPath: "headroom/app/chart", Deps: []string{"fmt", "github.com/maxence-charriere/go-app/v9/pkg/app"}},
		"headroom/app/ui/page":                 {ImportPath: "headroom/app/ui/page", Deps: []string{"syscall/js", "headroom/app/cli"}},
		"headroom/app/report":                  {ImportPath: "headroom/app/report", Deps: []string{"headroom/estimator", "gonum.org/v1/plot"}},
		"headroom/measure":                     {ImportPath: "headroom/measure", Deps: []string{"headroom/estimator", "github.com/a/pickle", "github.com/b/other", "headroom/app/cli"}},
		"headroom/app/cli":                     {ImportPath: "headroom/app/cli", Module: mod("headroom")},
		"github.com/a/pickle":                  {ImportPath: "github.com/a/pickle", Module: mod("github.com/a/pickle")},
		"github.com/b/other":                   {ImportPath: "github.com/b/other", Module: mod("github.com/b/other")},
	}
	problems, _ := depProblems(depRules, pkgs)
	want := []string{
		"headroom/app/chart must not depend on github.com/maxence-charriere/go-app/v9/pkg/app",
		"headroom/app/report must not depend on gonum.org/v1/plot",
		"headroom/app/ui/page must not depend on headroom/app/cli (rule for headroom/app/ui/...)",
		"headroom/estimator/urlquery must not depend on headroom/estimator/hfconfig (rule for headroom/estimator/urlquery: only std",
		"headroom/app/ui/page must not depend on headroom/app/cli (rule for headroom/app/ui/page/...)",
		"headroom/measure must not depend on headroom/app/cli (rule for headroom/measure/...: only std",
		"headroom/measure depends on more than one module outside the standard library: github.com/a/pickle, github.com/b/other",
	}
	if len(problems) != len(want) {
		t.Errorf("got %d problems, want %d:\n%s", len(problems), len(want), strings.Join(problems, "\n"))
	}
	for _, w := range want {
		if !slices.ContainsFunc(problems, func(p string) bool { return strings.HasPrefix(p, w) }) {
			t.Errorf("not found: %s...\nin:\n%s", w, strings.Join(problems, "\n"))
		}
	}
	// One outside module is what measure may have.
	pkgs["headroom/measure"].Deps = []string{"headroom/estimator", "github.com/a/pickle"}
	delete(pkgs, "headroom/app/chart")
	delete(pkgs, "headroom/app/ui/page")
	delete(pkgs, "headroom/app/report")
	pkgs["headroom/estimator/urlquery"].Deps = []string{"headroom/estimator", "headroom/estimator/internal/termexpr"}
	pkgs["headroom/app/cli"].Deps = []string{"headroom/estimator"}
	if problems, _ := depProblems(depRules, pkgs); len(problems) != 0 {
		t.Errorf("a lawful graph: %s", strings.Join(problems, "\n"))
	}
}

// TestPackagesHaveDocGo: every package of the module but a command has a
// doc.go whose package comment says its job (and, by the house's habit,
// what it may import), so a reader finds a package's room and its
// rule (depRules) in its own folder.
func TestPackagesHaveDocGo(t *testing.T) {
	checked := 0
	for path, p := range goList(t) {
		if p.Standard || p.Module == nil || p.Module.Path != "headroom" || p.Name == "main" || len(p.GoFiles) == 0 {
			continue
		}
		checked++
		if !slices.Contains(p.GoFiles, "doc.go") {
			t.Errorf("%s has no doc.go", path)
			continue
		}
		doc, err := os.ReadFile(filepath.Join(p.Dir, "doc.go"))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(doc), "// Package "+p.Name+" ") || !strings.Contains(string(doc), "import") {
			t.Errorf("%s: doc.go has no package comment, or it does not say what the package may import", path)
		}
	}
	if checked < 8 {
		t.Errorf("checked %d packages: the listing missed the module", checked)
	}
}

// TestPageDoesNotImportSyscallJS: the page model runs natively, so it
// never imports syscall/js itself. (Its dependencies reach syscall/js
// in the browser build through package syscall, so the rule is on its
// own imports, not on depRules' closure.)
func TestPageDoesNotImportSyscallJS(t *testing.T) {
	goTool := filepath.Join(runtime.GOROOT(), "bin", "go")
	if p, err := exec.LookPath("go"); err == nil {
		goTool = p
	}
	cmd := exec.Command(goTool, "list", "-f", "{{.ImportPath}}: {{join .Imports \" \"}}", "./app/ui/page/...")
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) == 0 || !strings.HasPrefix(lines[0], "headroom/app/ui/page") {
		t.Fatalf("go list found no page package: %q", out)
	}
	for _, line := range lines {
		if slices.Contains(strings.Fields(line), "syscall/js") {
			t.Errorf("%s imports syscall/js", strings.SplitN(line, ":", 2)[0])
		}
	}
}
