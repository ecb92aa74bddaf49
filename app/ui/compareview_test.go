package ui

import (
	"net/url"
	"strings"
	"testing"

	"headroom/app/chart"
	"headroom/app/report"
	"headroom/app/ui/chartview"
	"headroom/app/ui/page"
	"headroom/estimator"
)

func TestComparisons(t *testing.T) {
	list, _ := page.Presets()
	other := list[len(list)-1]
	for _, tc := range []struct {
		id         string
		query      string // the b.* keys the address carries
		base, cand string
	}{
		{page.ComparisonGPU, "b.capacity_bytes=85020000000&b.changes=head_eager_workspace%2Cfc2_known_storage%2Cgdn_early_release", "H100 80GB", "H200"},
		{page.ComparisonSequence, "b.changes=head_eager_workspace%2Cfc2_known_storage%2Cgdn_early_release&b.sequence_rows=4096", "sequence 4,096", "sequence 8,192"},
		{page.ComparisonModel + other.ID, "", other.Name, "Qwen3-Next-80B-A3B"},
		{page.ComparisonProfile, "b.changes=head_eager_workspace%2Cfc2_known_storage%2Cgdn_early_release&b.profile=seeds", "seeds' reading", "ART's code"},
	} {
		t.Run(tc.id, func(t *testing.T) {
			s, list := comparedState(t, tc.id)
			q := s.Query(list)
			b := url.Values{}
			for k, v := range q {
				if strings.HasPrefix(k, "b.") {
					b[k] = v
				}
			}
			if tc.query != "" && b.Encode() != tc.query {
				t.Errorf("the address's baseline: %s, want %s", b.Encode(), tc.query)
			}
			n := setupNames(s.Cfg, list)
			if n.Base != tc.base || n.Cand != tc.cand || !n.Setups {
				t.Errorf("names %+v, want %q and %q", n, tc.base, tc.cand)
			}
			// The link restores the same state, and writes the same link.
			back := page.Decode(q, list)
			if len(back.Errs) > 0 || back.Query(list).Encode() != q.Encode() {
				t.Errorf("round trip: errors %v, ?%s, want ?%s", back.Errs, back.Query(list).Encode(), q.Encode())
			}
			if string(estimator.MarshalConfig(back.Cfg)) != string(estimator.MarshalConfig(s.Cfg)) {
				t.Errorf("round trip: config\n%s\nwant\n%s", estimator.MarshalConfig(back.Cfg), estimator.MarshalConfig(s.Cfg))
			}
		})
	}
}

// TestCompareH100H200Sentence: the flip sentence and the panels name the
// two setups, with the figures of the README's sweep of
// examples/h100-vs-h200.json.
func TestCompareH100H200Sentence(t *testing.T) {
	s, list := comparedState(t, page.ComparisonGPU)
	n := setupNames(s.Cfg, list)
	sc := chartview.SweepCache[flipNotes]{Describe: describeSweep}
	in, notes, _, err := sc.Get(s.Cfg, n.chartNames(), "rows", 1, 900000, page.ChartPoints)
	if err != nil {
		t.Fatal(err)
	}
	if in.Names != [2]string{"H100 80GB", "H200"} {
		t.Errorf("the chart's names %q", in.Names)
	}
	want := "between 227,374 rows (55.511 sequences) and 375,781 rows (91.743 sequences) H200 admits where H100 80GB split; " +
		"between 375,782 rows (91.744 sequences) and 403,170 rows (98.430 sequences) H200 admits where H100 80GB refused; " +
		"between 403,171 rows (98.430 sequences) and 670,606 rows (163.722 sequences) H200 splits where H100 80GB refused"
	if notes.Change != want {
		t.Errorf("sentence %q\nwant %q", notes.Change, want)
	}
	if !strings.Contains(notes.Baseline, "admits up to 227,373 rows") || !strings.Contains(notes.Candidate, "admits up to 403,170 rows") {
		t.Errorf("flips: %q / %q", notes.Baseline, notes.Candidate)
	}
	p := panelTexts(s.Cfg, n, nil)
	if p[0].title != "H100 80GB" || p[1].title != "H200" || !strings.HasPrefix(p[0].subtitle, "the baseline, with ") {
		t.Errorf("panels %+v", p)
	}
	res, err := estimator.Estimate(s.Cfg)
	if err != nil {
		t.Fatal(err)
	}
	if availableOf(res, 0) == availableOf(res, 1) || availableOf(res, 1) != res.AvailableBytes {
		t.Errorf("available bytes %d (baseline) and %d (candidate): each revision's own", availableOf(res, 0), availableOf(res, 1))
	}
	// Without a baseline of its own the words are today's.
	d := page.New()
	if got := setupNames(d.Cfg, list); got != defaultNames {
		t.Errorf("default names %+v", got)
	}
	if got := panelTexts(d.Cfg, defaultNames, nil); got[0].title != "Baseline" || got[1].title != "Candidate" {
		t.Errorf("default panels %+v", got)
	}
	plain := chartview.SweepCache[flipNotes]{Describe: describeSweep}
	_, dn, _, _ := plain.Get(d.Cfg, [2]string{}, "rows", 1, 900000, page.ChartPoints)
	if !strings.Contains(dn.Change, " the candidate ") || !strings.Contains(dn.Change, " the baseline ") {
		t.Errorf("default sentence %q", dn.Change)
	}
}

func TestSetupNames(t *testing.T) {
	list, _ := page.Presets()
	with := func(o estimator.Overrides) estimator.Config {
		c := estimator.Default()
		c.Baseline = &estimator.Baseline{Changes: c.Changes, Overrides: o}
		return c
	}
	for _, tc := range []struct {
		name       string
		cfg        estimator.Config
		base, cand string
	}{
		{"custom capacity", with(estimator.Overrides{"budget.capacity_bytes": {Int: 64 << 30}}), "64.000 GiB", "H200"},
		{"one field", with(estimator.Overrides{"head.chunk_rows": {Int: 1024}}), "chunk_rows 1,024", "chunk_rows 512"},
		{"a switch", with(estimator.Overrides{"request.grad": {Bool: false}}), "grad off", "grad on"},
		{"two fields", with(estimator.Overrides{"head.chunk_rows": {Int: 1024}, "budget.safety_percent": {Int: 120}}), "baseline", "candidate"},
		{"only switches", with(estimator.Overrides{}), "baseline", "candidate"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := setupNames(tc.cfg, list)
			if n.Base != tc.base || n.Cand != tc.cand || !n.Setups {
				t.Errorf("names %+v, want %q and %q", n, tc.base, tc.cand)
			}
		})
	}
}

// TestCompareBadOverrideKept: a link's override that makes the baseline
// invalid is marked beside its control with the estimator's message, its
// text kept there and in the next address, while the page renders the
// rest (the override left out, as the estimator's Repair leaves it); a
// text that does not parse stays as typed.
func TestCompareBadOverrideKept(t *testing.T) {
	list, _ := page.Presets()
	q := url.Values{"b.capacity_bytes": {"85020000000"}, "b.in_use_bytes": {"90000000000"}, "rows": {"1000"}}
	bad := estimator.Default()
	bad.Baseline = &estimator.Baseline{Overrides: estimator.Overrides{
		"budget.capacity_bytes": {Int: estimator.H100CapacityBytes}, "budget.in_use_bytes": {Int: 90000000000}}}
	_, err := bad.ResolveRevisions()
	var want string
	for _, e := range estimator.FieldErrors(err) {
		if e.Field == "baseline.overrides.budget.in_use_bytes" {
			want = e.Message
		}
	}
	if want == "" {
		t.Fatalf("fixture: the estimator finds no baseline.overrides.budget.in_use_bytes error in %v", err)
	}
	s := page.Decode(q, list)
	if got := s.Errs["b.in_use_bytes"]; got != want {
		t.Errorf("beside b.in_use: %q, want %q (all: %v)", got, want, s.Errs)
	}
	if !s.CfgOK { // a fresh link draws the rest, marked (an edit keeps the last valid state)
		t.Errorf("the rest of the link does not render: %v", s.Errs)
	}
	if _, in := s.Cfg.Baseline.Overrides["budget.in_use_bytes"]; in || s.Cfg.Request.Rows != 1000 ||
		s.Cfg.Baseline.Overrides["budget.capacity_bytes"].Int != estimator.H100CapacityBytes {
		t.Errorf("rows %d, baseline %+v: want rows 1000 and the H100 without the bad override", s.Cfg.Request.Rows, s.Cfg.Baseline)
	}
	back := s.Query(list)
	if back.Get("b.in_use_gib") != page.GiBText(90000000000) || back.Get("rows") != "1000" || back.Get("b.capacity_bytes") != "85020000000" {
		t.Errorf("the address lost something: ?%s", back.Encode())
	}
	again := page.Decode(back, list)
	if again.Query(list).Encode() != back.Encode() || again.Errs["b.in_use_bytes"] != want {
		t.Errorf("reloaded: ?%s, errors %v", again.Query(list).Encode(), again.Errs)
	}
	v := compareViewOf(&s, list)
	found := false
	for _, r := range v.Rows {
		if r.Control == "b."+page.KeyInUseGiB {
			found = r.Error == want && r.Text == page.GiBText(90000000000) && r.Candidate == "0 GiB"
		}
	}
	if !found {
		t.Errorf("the in-use row does not show the text, the candidate's value and the message: %+v", v.Rows)
	}

	t.Run("partner", func(t *testing.T) {
		// 100 GiB in use fits the candidate's H200, not the baseline's H100:
		// the capacity is what goes, and its field says why.
		s := page.Decode(url.Values{"b.capacity_bytes": {"85020000000"}, "in_use_bytes": {"107374182400"}}, list)
		if !s.CfgOK || s.Text("b.capacity_bytes") != "85020000000" || !strings.HasPrefix(s.Errs["b.capacity_bytes"], "budget.in_use_bytes ") {
			t.Errorf("valid %v, text %q, errors %v", s.Valid, s.Text("b.capacity_bytes"), s.Errs)
		}
		if got := s.Query(list).Get("b.capacity_bytes"); got != "85020000000" {
			t.Errorf("the address says b.capacity_bytes=%q", got)
		}
	})
	t.Run("unparsed", func(t *testing.T) {
		s := page.Decode(url.Values{"b.sequence_rows": {"many"}, "b.changes": {""}}, list)
		if s.Texts["b.sequence_rows"] != "many" || s.Errs["b.sequence_rows"] == "" {
			t.Errorf("text %q, error %q", s.Texts["b.sequence_rows"], s.Errs["b.sequence_rows"])
		}
		if got := s.Query(list).Get("b.sequence_rows"); got != "many" {
			t.Errorf("the address says b.sequence_rows=%q", got)
		}
	})
	t.Run("bad keys", func(t *testing.T) {
		s := page.Decode(url.Values{"b.changes": {"fc2_known_storage,bogus"}, "b.nonsense": {"1"}, "b.sequence_rows": {"2048"}}, list)
		if !strings.Contains(s.Errs[page.KeyBaseChanges], "bogus") || !strings.Contains(s.Errs[page.KeyCompare], "b.nonsense") {
			t.Errorf("errors %v", s.Errs)
		}
		if b := s.Cfg.Baseline; b == nil || !b.Changes.FC2KnownStorage || b.Overrides["request.sequence_rows"].Int != 2048 {
			t.Errorf("the rest of the baseline was lost: %+v", b)
		}
	})
	t.Run("typed", func(t *testing.T) {
		s, list := comparedState(t, page.ComparisonGPU)
		s.ApplyCompare(page.Edit{For: page.ForCompare, Kind: page.EditText, Key: "b." + page.KeyInUseGiB, Text: "90"}, list)
		s.Validate()
		if s.Errs["b.in_use_bytes"] == "" || s.Texts["b."+page.KeyInUseGiB] != "90" {
			t.Errorf("90 GiB in use on an H100: errors %v", s.Errs)
		}
		back := page.Decode(s.Query(list), list)
		if back.Errs["b.in_use_bytes"] != s.Errs["b.in_use_bytes"] || back.Text("b."+page.KeyInUseGiB) != "90" {
			t.Errorf("after a reload: errors %v, text %q", back.Errs, back.Text("b."+page.KeyInUseGiB))
		}
		s.ApplyCompare(page.Edit{For: page.ForCompare, Kind: page.EditText, Key: "b." + page.KeyInUseGiB, Text: ""}, list)
		s.Validate()
		if !s.Valid {
			t.Errorf("emptied, the baseline follows the candidate again: %v", s.Errs)
		}
	})
}

// TestCompareModelKept: a baseline with a model of its own keeps it when
// the candidate's preset changes; one without follows the candidate.
func TestCompareModelKept(t *testing.T) {
	s, list := comparedState(t, page.ComparisonModel+"mixtral-8x7b")
	s.SetMenu(page.KeyPreset, "llama-3.1-8b", list)
	bc, err := s.Cfg.BaselineConfig()
	if err != nil {
		t.Fatal(err)
	}
	if got := page.MatchModel(list, bc); got != "mixtral-8x7b" { // a baseline's model is named by its fields (its arch fields are the candidate's)
		t.Errorf("the baseline's model is now %q", got)
	}
	if n := setupNames(s.Cfg, list); n.Cand != presetName(list, s.Cfg) || n.Base != presetName(list, bc) || n.Base == "" {
		t.Errorf("names %+v", n)
	}
	g, _ := comparedState(t, page.ComparisonGPU)
	g.SetMenu(page.KeyPreset, "llama-3.1-8b", list)
	bc, _ = g.Cfg.BaselineConfig()
	if page.MatchPreset(list, bc) != "llama-3.1-8b" || len(g.Cfg.Baseline.Overrides) != 1 {
		t.Errorf("a GPU comparison's baseline follows the model: %+v", g.Cfg.Baseline)
	}
}

// TestCompareAddRemove: any field can be overridden and given back.
func TestCompareAddRemove(t *testing.T) {
	s, list := comparedState(t, page.ComparisonGPU)
	s.ApplyCompare(page.Edit{For: page.ForCompare, Kind: page.EditMenu, Key: page.KeyBaseAdd, Text: "chunk_rows"}, list)
	s.ApplyCompare(page.Edit{For: page.ForCompare, Kind: page.EditText, Key: "b.chunk_rows", Text: "1k"}, list)
	s.ApplyCompare(page.Edit{For: page.ForCompare, Kind: page.EditMenu, Key: page.KeyBaseAdd, Text: "grad"}, list)
	s.ApplyCompare(page.Edit{For: page.ForCompare, Kind: page.EditCheck, Key: "b.grad", On: false}, list)
	s.Validate()
	o := s.Cfg.Baseline.Overrides
	if o["head.chunk_rows"].Int != 1000 || o["request.grad"].Bool || !s.Valid {
		t.Fatalf("overrides %+v, errors %v", o, s.Errs)
	}
	v := compareViewOf(&s, list)
	var rows []string
	for _, r := range v.Rows {
		rows = append(rows, r.Label+"="+r.Text+" (candidate "+r.Candidate+")")
	}
	got := strings.Join(rows, "; ")
	if want := "sequence_rows= (candidate 4,096); in use (GiB)= (candidate 0 GiB); grad=false (candidate on); chunk_rows=1k (candidate 512)"; got != want {
		t.Errorf("rows %s\nwant %s", got, want)
	}
	if v.GPU != "h100" {
		t.Errorf("GPU menu %q", v.GPU)
	}
	s.ApplyCompare(page.Edit{For: page.ForCompare, Kind: page.EditMenu, Key: page.KeyBaseRemove, Text: "b.chunk_rows"}, list)
	if _, ok := s.Cfg.Baseline.Overrides["head.chunk_rows"]; ok {
		t.Error("removed, chunk_rows is still overridden")
	}
	s.ApplyCompare(page.Edit{For: page.ForCompare, Kind: page.EditMenu, Key: page.KeyBaseGPU, Text: estimator.CustomGPU}, list)
	s.ApplyCompare(page.Edit{For: page.ForCompare, Kind: page.EditText, Key: "b.capacity_bytes", Text: "80GiB"}, list)
	v = compareViewOf(&s, list)
	if s.Cfg.Baseline.Overrides["budget.capacity_bytes"].Int != 80<<30 || v.GPU != estimator.CustomGPU ||
		!strings.Contains(fmtRows(v), "capacity_bytes=80GiB") {
		t.Errorf("a custom capacity: %+v, menu %q, rows %s", s.Cfg.Baseline.Overrides, v.GPU, fmtRows(v))
	}
	s.ApplyCompare(page.Edit{For: page.ForCompare, Kind: page.EditMenu, Key: page.KeyBaseGPU, Text: page.SameAsCandidate}, list)
	if _, ok := s.Cfg.Baseline.Overrides["budget.capacity_bytes"]; ok || strings.Contains(fmtRows(compareViewOf(&s, list)), "capacity_bytes") {
		t.Errorf("the same GPU as the candidate still overrides the capacity")
	}
	s.ApplyCompare(page.Edit{For: page.ForCompare, Kind: page.EditMenu, Key: page.KeyBaseAdd, Text: "head_eager_workspace"}, list)
	if s.InputErr[page.KeyBaseAdd] == "" {
		t.Error("a change is not a field to override, and nothing says so")
	}
}

// TestCompareExportImport: the page's JSON export carries the baseline
// and importing it restores it.
func TestCompareExportImport(t *testing.T) {
	s, list := comparedState(t, page.ComparisonSequence)
	v := page.View{Axis: s.Axis, From: s.From, To: s.To}
	in, err := chart.Build(s.Cfg, v.Axis, v.From, v.To, 64)
	if err != nil {
		t.Fatal(err)
	}
	data, err := exportJSON(s.Cfg, v, in)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"sequence_rows": 4096`) {
		t.Errorf("the export lacks the baseline:\n%s", data)
	}
	imp, err := page.ImportJSON(estimator.Default(), data)
	if err != nil {
		t.Fatal(err)
	}
	fresh := page.New()
	next, err := fresh.WithImport(imp, list)
	if err != nil {
		t.Fatal(err)
	}
	if next.Query(list).Encode() != s.Query(list).Encode() {
		t.Errorf("imported: ?%s, want ?%s", next.Query(list).Encode(), s.Query(list).Encode())
	}
	// A config of the spec's format with only a baseline is a config.
	imp, err = page.ImportJSON(estimator.Default(), []byte(`{"baseline": {"overrides": {"budget": {"capacity_bytes": 85020000000}}}}`))
	if err != nil || imp.Kind != "config" || imp.Config.Baseline == nil {
		t.Errorf("a config with only a baseline: %+v, %v", imp.Kind, err)
	}
}

// TestCompareCSVInvalidAlone: a revision invalid alone has empty byte
// cells in the CSV, not zeros.
func TestCompareCSVInvalidAlone(t *testing.T) {
	cfg := estimator.Default()
	cfg.Baseline = &estimator.Baseline{Overrides: estimator.Overrides{"budget.in_use_bytes": {Int: 40 << 30}}}
	in, err := chart.Build(cfg, "capacity_bytes", 1<<30, 100<<30, 16)
	if err != nil {
		t.Fatal(err)
	}
	out, err := report.SweepCSV(cfg, SweepOf(in))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(out), "\n")
	if !strings.HasPrefix(lines[1], "grid,1073741824,,,,,,,,invalid,") {
		t.Errorf("first row %q", lines[1])
	}
}

func fmtRows(v compareView) string {
	var rows []string
	for _, r := range v.Rows {
		rows = append(rows, r.Label+"="+r.Text)
	}
	return strings.Join(rows, "; ")
}

// comparedState is the page after choosing a ready-made comparison.
func comparedState(t *testing.T, id string) (page.State, []page.Preset) {
	t.Helper()
	list, err := page.Presets()
	if err != nil {
		t.Fatal(err)
	}
	// The setup of examples/h100-vs-h200.json and the README's figures:
	// in_use_bytes as given (0), one GPU; TestCompareModelResident
	// compares models with resident memory on.
	s := page.Decode(url.Values{page.KeyResident: {"off"}, "expert_parallel": {"1"}}, list)
	s.ApplyCompare(page.Edit{For: page.ForCompare, Kind: page.EditMenu, Key: page.KeyComparePreset, Text: id}, list)
	s.Validate()
	if !s.Valid {
		t.Fatalf("comparison %s: invalid: %v", id, s.Errs)
	}
	return s, list
}
