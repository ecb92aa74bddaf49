package ui

import (
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/chart"
	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// mountExplorer mounts the page as the browser would, opening the URL
// query q, and renders it (natively a render runs at once).
func mountExplorer(t *testing.T, q url.Values) (*explorer, app.ClientDispatcher) {
	t.Helper()
	c := newExplorer()
	c.Query = q
	if c.Query == nil {
		c.Query = url.Values{}
	}
	d := app.NewClientTester(c)
	t.Cleanup(d.Close)
	if c.banner.Message != "" {
		t.Fatalf("banner after mount: %s\n%s", c.banner.Message, c.banner.Details)
	}
	return c, d
}

// send delivers an edit the way a control does: on the UI goroutine,
// through the explorer's sink.
func send(d app.ClientDispatcher, c *explorer, e page.Edit) {
	d.Dispatch(app.Dispatch{Mode: app.Update, Source: c, Function: func(ctx app.Context) {
		c.sink.Send(ctx, e)
	}})
	d.Consume()
}

// The edit says its feature as the control's component does: the Compare
// form's fields ("b." keys, comparepanel.go) and the map view's
// (app/ui/mapview) theirs, every other field the config's.
func typeInto(d app.ClientDispatcher, c *explorer, key, text string) {
	e := page.Edit{Kind: page.EditText, Key: key, Text: text}
	switch {
	case strings.HasPrefix(key, page.BaselineKeyPrefix):
		e.For = page.ForCompare
	case slices.Contains([]string{page.KeyMXFrom, page.KeyMXTo, page.KeyMYFrom, page.KeyMYTo, page.KeyMCols}, key):
		e.For = page.ForMap
	}
	send(d, c, e)
}

// idsIn lists the id attributes of an HTML string.
func idsIn(html string) map[string]bool {
	ids := map[string]bool{}
	for _, m := range regexp.MustCompile(` id="([^"]+)"`).FindAllStringSubmatch(html, -1) {
		ids[m[1]] = true
	}
	return ids
}

func TestExplorerFirstRender(t *testing.T) {
	c, _ := mountExplorer(t, nil)
	if !c.shown.ready || c.renders != 1 {
		t.Fatalf("ready %v, renders %d; want a first render", c.shown.ready, c.renders)
	}
	if b, k := c.shown.result.Baseline.Decision, c.shown.result.Candidate.Decision; b != estimator.Admit || k != estimator.Admit {
		t.Errorf("default decisions %v / %v, want admit / admit", b, k)
	}
	// The page's default config (resident memory at expert parallelism
	// 8), its flips as the estimator's sweep of it gives them.
	cfg := page.NewConfig()
	from, to := page.FitRange("rows", cfg)
	in, err := chart.Build(cfg, "rows", from, to, page.ChartPoints)
	if err != nil {
		t.Fatal(err)
	}
	want := describeSweep(in, cfg.Request.SequenceRows)
	if c.shown.notes != want || !strings.HasPrefix(want.Candidate, "admits up to ") ||
		!strings.Contains(want.Candidate, "refuses up to the range's end") || !strings.Contains(want.Baseline, "refuses up to the range's end") {
		t.Errorf("notes\n got %+v\nwant %+v", c.shown.notes, want)
	}
	html := app.HTMLString(c)
	for _, attr := range []string{`data-ready="1"`, `data-renders="1"`} {
		if !strings.Contains(html, attr) {
			t.Errorf("root lacks %s", attr)
		}
	}
	if !regexp.MustCompile(`id="chart"[^>]*>\s*<svg`).MatchString(html) {
		t.Errorf("#chart does not hold the <svg>")
	}
	ids := idsIn(html)
	var want2 []string
	folded := foldedKeys()
	for _, s := range page.Sliders() {
		if folded[s.Key] {
			// A closed group's fields are drawn when it is opened
			// (TestFoldDrawsItsFieldsWhenOpen).
			for _, id := range []string{"slider-" + s.Key, "input-" + s.Key} {
				if ids[id] {
					t.Errorf("#%s drawn inside a closed group", id)
				}
			}
			continue
		}
		want2 = append(want2, "slider-"+s.Key, "input-"+s.Key, "error-"+page.ErrorKey(s.Key))
	}
	for _, f := range estimator.Fields() {
		if f.Kind == estimator.BoolField {
			want2 = append(want2, "check-"+f.Key)
		}
	}
	want2 = append(want2, "explorer", "check-topk", "check-expert_parallel", "preset", "gpu", "axis", "axis-from", "axis-to",
		"decision-baseline", "decision-candidate", "flips-baseline", "flips-candidate", "change-summary", "chart", "breakdown",
		"input-in_use_gib", "slider-in_use_gib", "error-in_use_bytes")
	for _, id := range want2 {
		if !ids[id] {
			t.Errorf("no element #%s", id)
		}
	}
	if ids["error-banner"] {
		t.Errorf("an error banner without an error")
	}
	if err := app.TestMatch(c, app.TestUIDescriptor{
		Path: app.TestPath(0),
		Expected: app.Div().ID("explorer").Class("explorer").DataSet("ready", "1").DataSet("renders", 1).DataSet("render-ms", c.renderMsText()).
			DataSet("live", "1").DataSet("edits", 0).DataSet("query", ""),
	}); err != nil {
		t.Error(err)
	}
}

func TestExplorerEditRenders(t *testing.T) {
	c, d := mountExplorer(t, nil)
	typeInto(d, c, "rows", "500000")
	if c.renders != 2 {
		t.Fatalf("renders %d after a valid edit, want 2", c.renders)
	}
	if got := c.shown.result.Baseline.Decision; got != estimator.Split {
		t.Errorf("baseline at 500,000 rows: %v, want split", got)
	}
	if got := c.state.Query(c.list).Get("rows"); got != "500000" {
		t.Errorf("URL rows=%q, want 500000", got)
	}
	// An edit that changes nothing visible does not render again.
	typeInto(d, c, "rows", "500,000")
	if c.renders != 2 {
		t.Errorf("renders %d after re-typing the same value, want 2", c.renders)
	}
	if got := c.state.Text("rows"); got != "500,000" {
		t.Errorf("field shows %q, want what was typed", got)
	}
	send(d, c, page.Edit{Kind: page.EditCheck, Key: "grad", On: false})
	if c.renders != 3 || c.shown.config.Request.Grad {
		t.Errorf("grad off: renders %d, grad %v", c.renders, c.shown.config.Request.Grad)
	}
}

func TestExplorerInvalidKeepsLastValid(t *testing.T) {
	c, d := mountExplorer(t, nil)
	before := c.shown.result
	for _, tc := range []struct {
		key, text, errKey, msg string
	}{
		{"rows", "0", "rows", "must be an integer in 1..2,147,483,647, got 0"},
		{"rows", "12a", "rows", `is not an integer: "12a"; must be an integer in 1..2,147,483,647`},
		{"projected_rows", "70000", "projected_rows", "must be in 1..rows (64,902), got 70,000"},
		{page.KeyInUseGiB, "200", "in_use_bytes", "must be in 0..capacity_bytes (150,754,820,096), got 214,748,364,800"},
		{page.KeyInUseGiB, "-1", "in_use_bytes", `must be a non-negative number of GiB, like 63.75: "-1"`},
		{page.KeyTo, "0", page.KeyTo, "must be at least from (1), got 0"},
	} {
		t.Run(tc.key+"="+tc.text, func(t *testing.T) {
			typeInto(d, c, tc.key, tc.text)
			if got := c.state.Errs[tc.errKey]; got != tc.msg {
				t.Errorf("%s=%q: message %q, want %q", tc.key, tc.text, got, tc.msg)
			}
			if c.renders != 1 || c.shown.result.Baseline.RequiredBytes != before.Baseline.RequiredBytes {
				t.Errorf("%s=%q: the render changed (renders %d)", tc.key, tc.text, c.renders)
			}
			if got := c.state.Text(tc.key); got != tc.text {
				t.Errorf("%s shows %q, want the typed %q", tc.key, got, tc.text)
			}
			html := app.HTMLString(c)
			if !strings.Contains(html, estimatorEscape(tc.msg)) {
				t.Errorf("%s: the page does not show %q", tc.key, tc.msg)
			}
			if !strings.Contains(html, "stale-note") {
				t.Errorf("%s: no note that the results are stale", tc.key)
			}
			// put it right again
			switch tc.key {
			case page.KeyInUseGiB:
				typeInto(d, c, tc.key, "0")
			case page.KeyTo:
				_, to := page.FitRange("rows", c.state.Cfg) // the fitted range the page opened with
				typeInto(d, c, tc.key, strconv.FormatInt(to, 10))
			case "projected_rows":
				typeInto(d, c, tc.key, "")
			default:
				typeInto(d, c, tc.key, "64902")
			}
			if len(c.state.Errs) != 0 {
				t.Fatalf("after fixing %s: errors %v", tc.key, c.state.Errs)
			}
		})
	}
	if c.renders != 1 {
		t.Errorf("renders %d: fixing a field back to the shown state should not redraw", c.renders)
	}
}

// estimatorEscape is how go-app writes text into HTML.
func estimatorEscape(s string) string {
	return strings.NewReplacer(`"`, "&#34;", "'", "&#39;", "<", "&lt;", ">", "&gt;", "&", "&amp;").Replace(s)
}

func TestExplorerOverflowNamesFields(t *testing.T) {
	// Without the resident group, whose weights would be refused first.
	c, d := mountExplorer(t, url.Values{page.KeyResident: {"off"}})
	typeInto(d, c, "rows", "2147483647")
	typeInto(d, c, "hidden_size", "1048576")
	typeInto(d, c, "num_hidden_layers", "1048576")
	if c.state.Valid {
		t.Fatalf("an overflowing config is valid")
	}
	found := false
	for k, m := range c.state.Errs {
		if strings.Contains(m, "overflows") {
			found = true
			if _, ok := estimator.FieldByKey(k); !ok {
				t.Errorf("overflow reported under %q, not a field", k)
			}
		}
	}
	if !found {
		t.Errorf("no overflow message among %v", c.state.Errs)
	}
	if c.renders != 3 { // rows, then hidden_size, were valid
		t.Errorf("renders %d, want 3", c.renders)
	}
}

func TestExplorerURLRoundTrip(t *testing.T) {
	c, d := mountExplorer(t, nil)
	send(d, c, page.Edit{Kind: page.EditMenu, Key: page.KeyPreset, Text: "mixtral-8x7b"})
	send(d, c, page.Edit{Kind: page.EditMenu, Key: page.KeyGPU, Text: page.GPUH100})
	send(d, c, page.Edit{Kind: page.EditMenu, Key: page.KeyAxis, Text: "vocab_size"})
	typeInto(d, c, page.KeyInUseGiB, "63.75")
	send(d, c, page.Edit{Kind: page.EditCheck, Key: "topk", On: true})
	send(d, c, page.Edit{Kind: page.EditCheck, Key: "gdn_early_release", On: false})
	typeInto(d, c, "sequence_rows", "8192")
	typeInto(d, c, page.KeyTo, "300000")
	typeInto(d, c, "chunk_rows", "5x") // an error travels in the URL too
	q := c.state.Query(c.list)
	if q.Get(page.KeyPreset) != "mixtral-8x7b" || q.Get("in_use_bytes") != "68451041280" || q.Get("chunk_rows") != "5x" {
		t.Errorf("query %s", q.Encode())
	}
	c2, _ := mountExplorer(t, q)
	if got, want := c2.state.Query(c2.list).Encode(), q.Encode(); got != want {
		t.Errorf("reopened URL differs\n got %s\nwant %s", got, want)
	}
	s1, s2 := &c.state, &c2.state
	if s1.Axis != s2.Axis || s1.From != s2.From || s1.To != s2.To || s1.GPU != s2.GPU {
		t.Errorf("page keys differ: %v %v %v %v / %v %v %v %v", s1.Axis, s1.From, s1.To, s1.GPU, s2.Axis, s2.From, s2.To, s2.GPU)
	}
	for _, s := range page.Sliders() {
		if a, b := s1.Text(s.Key), s2.Text(s.Key); a != b {
			t.Errorf("%s shows %q, reopened %q", s.Key, a, b)
		}
	}
	if c2.state.Errs["chunk_rows"] == "" {
		t.Errorf("the reopened page does not mark chunk_rows")
	}
	if !c2.shown.ready {
		t.Errorf("the reopened page did not render")
	}
}

func TestExplorerBadURL(t *testing.T) {
	q, _ := url.ParseQuery("rows=abc&hidden_size=0&vocab_size=32000&in_use_gib=lots&axis=nope&from=x&gpu=tpu&preset=nope&grad=false")
	c, _ := mountExplorer(t, q)
	for key, text := range map[string]string{"rows": "abc", "hidden_size": "0", page.KeyInUseGiB: "lots", page.KeyFrom: "x"} {
		t.Run(key, func(t *testing.T) {
			if got := c.state.Text(key); got != text {
				t.Errorf("%s shows %q, want the URL's %q", key, got, text)
			}
			if c.state.Errs[page.ErrorKey(key)] == "" {
				t.Errorf("%s is not marked", key)
			}
		})
	}
	for _, key := range []string{page.KeyAxis, page.KeyGPU, page.KeyPreset} {
		if c.state.Errs[key] == "" {
			t.Errorf("%s is not marked", key)
		}
	}
	if c.state.Cfg.Model.VocabSize != 32000 || c.state.Cfg.Request.Grad {
		t.Errorf("the good values were not kept: vocab %d grad %v", c.state.Cfg.Model.VocabSize, c.state.Cfg.Request.Grad)
	}
	if in, ok := c.sweeps.Last(); !c.shown.ready || !ok || in.Axis.Key != "rows" {
		t.Errorf("the page did not render the rest (ready %v, sweep %v along %v)", c.shown.ready, ok, in.Axis)
	}
}

func TestExplorerPanicShowsBanner(t *testing.T) {
	c, d := mountExplorer(t, nil)
	c.panicHook = func(e page.Edit) {
		if e.Key == "rows" {
			panic("boom")
		}
	}
	typeInto(d, c, "rows", "1000")
	if !strings.Contains(c.banner.Message, "boom") || !strings.Contains(c.banner.Details, "explorer_test.go") {
		t.Fatalf("banner %q / details %q", c.banner.Message, c.banner.Details)
	}
	ids := idsIn(app.HTMLString(c))
	if !ids["error-banner"] || !ids["copy-details"] {
		t.Errorf("banner or its copy button missing")
	}
	// The page goes on: another control still works.
	typeInto(d, c, "sequence_rows", "2048")
	if c.renders != 2 {
		t.Errorf("renders %d after the panic, want 2", c.renders)
	}
	send(d, c, page.Edit{Kind: page.EditDismiss})
	if c.banner.Message != "" || idsIn(app.HTMLString(c))["error-banner"] {
		t.Errorf("the banner did not close")
	}
}

func TestExplorerPanicFromURL(t *testing.T) {
	c, d := mountExplorer(t, url.Values{"panic": {"edit"}})
	typeInto(d, c, "rows", "1000")
	if !strings.Contains(c.banner.Message, "panic=edit") {
		t.Fatalf("banner %q", c.banner.Message)
	}
	typeInto(d, c, "rows", "2000")
	if c.renders != 2 || c.state.Cfg.Request.Rows != 2000 {
		t.Errorf("after the panic: renders %d rows %d", c.renders, c.state.Cfg.Request.Rows)
	}
	if q := c.state.Query(c.list); q.Has("panic") {
		t.Errorf("the URL keeps panic=: %s", q.Encode())
	}
}

// TestPageURLNeverArmsPanic: panic=edit in the address bar of the page
// people use is an unknown key, nothing more.
func TestPageURLNeverArmsPanic(t *testing.T) {
	c := newExplorer()
	c.load(url.Values{"panic": {"edit"}}) // what OnPreRender and OnMount read from the URL
	if c.panicHook != nil {
		t.Fatal("the page's URL armed the test panic")
	}
}

func TestCatchRender(t *testing.T) {
	var where string
	s := &widget.Sink{Fail: func(w string, r any, _ []byte) { where = w }}
	render := func() (ui app.UI) {
		defer s.CatchRender("drawing x", &ui)
		panic("bad")
	}
	if ui := render(); ui == nil || where != "drawing x" {
		t.Errorf("catchRender: ui %v, reported %q", ui, where)
	}
}

func TestExplorerPresetAndGPU(t *testing.T) {
	c, d := mountExplorer(t, nil)
	send(d, c, page.Edit{Kind: page.EditMenu, Key: page.KeyPreset, Text: "llama-3.1-8b"})
	o := c.shown.result.Baseline
	for _, s := range o.Stages {
		if s.Name == "fc2" || s.Name == "gdn" {
			t.Errorf("a dense model without GDN has a %s stage", s.Name)
		}
	}
	if got := page.MatchPreset(c.list, c.state.Cfg); got != "llama-3.1-8b" {
		t.Errorf("preset menu shows %q", got)
	}
	if _, to := page.FitRange("rows", c.state.Cfg); c.state.To != to {
		t.Errorf("range to %d after the preset", c.state.To)
	}
	send(d, c, page.Edit{Kind: page.EditMenu, Key: page.KeyGPU, Text: page.GPUH100})
	if c.state.Cfg.Budget.CapacityBytes != estimator.H100CapacityBytes || c.shown.result.AvailableBytes >= estimator.H100CapacityBytes {
		t.Errorf("H100: capacity %d, available %d", c.state.Cfg.Budget.CapacityBytes, c.shown.result.AvailableBytes)
	}
	typeInto(d, c, "hidden_size", "4000")
	if got := page.MatchPreset(c.list, c.state.Cfg); got != "" {
		t.Errorf("an edited model still matches preset %q", got)
	}
}
