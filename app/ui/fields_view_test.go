package ui

import (
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// TestReversedRangeLinkRenders: a link whose range runs backwards draws
// the default range, with the message beside the range field and the
// link's text kept in both fields and in the address.
func TestReversedRangeLinkRenders(t *testing.T) {
	c, _ := mountExplorer(t, url.Values{"from": {"500"}, "to": {"10"}})
	if !c.shown.ready {
		t.Fatalf("no render for ?from=500&to=10; errors %v", c.state.Errs)
	}
	in, _ := c.sweeps.Last()
	from, to := page.FitRange("rows", c.state.Cfg)
	if in.From != from || in.To != to || in.Axis.Key != "rows" {
		t.Errorf("the chart sweeps %d..%d, want the default %d..%d", in.From, in.To, from, to)
	}
	if c.state.Errs[page.KeyTo] == "" && c.state.Errs[page.KeyFrom] == "" {
		t.Errorf("no message beside the range: %v", c.state.Errs)
	}
	if got := c.state.Text(page.KeyFrom) + ".." + c.state.Text(page.KeyTo); got != "500..10" {
		t.Errorf("the range fields show %s", got)
	}
	q := c.state.Query(c.list)
	if q.Get("from") != "500" || q.Get("to") != "10" {
		t.Errorf("the address lost the link's range: ?%s", q.Encode())
	}
}

// TestBadSwitchValue: grad=maybe marks the grad switch; using it clears
// the message and the text, so the address no longer carries it.
func TestBadSwitchValue(t *testing.T) {
	for _, key := range []string{"grad", "head_eager_workspace"} {
		t.Run(key, func(t *testing.T) {
			c, d := mountExplorer(t, url.Values{key: {"maybe"}})
			if !strings.Contains(c.state.Errs[key], "true or false") {
				t.Fatalf("errs[%s] = %q", key, c.state.Errs[key])
			}
			html := controlViewOf(&c.state, c.list).Errors[key]
			if html == "" {
				t.Errorf("the controls get no message for %s", key)
			}
			send(d, c, page.Edit{Kind: page.EditCheck, Key: key, On: true})
			if m, ok := c.state.Errs[key]; ok {
				t.Errorf("after using the switch: errs[%s] = %q", key, m)
			}
			if q := c.state.Query(c.list).Encode(); strings.Contains(q, "maybe") {
				t.Errorf("after using the switch the address says ?%s", q)
			}
			if f, _ := estimator.FieldByKey(key); !f.Bool(&c.state.Cfg) {
				t.Errorf("%s is off after switching it on", key)
			}
		})
	}
}

// TestRangeFollowsConfig: along in_use_bytes the range nobody typed ends
// at the GPU's capacity; a typed range stays until "fit range"; moving
// the swept field itself does not move its axis.
func TestRangeFollowsConfig(t *testing.T) {
	c, d := mountExplorer(t, url.Values{"axis": {"in_use_bytes"}})
	if c.state.To != estimator.H200CapacityBytes {
		t.Fatalf("to = %d on an H200", c.state.To)
	}
	send(d, c, page.Edit{Kind: page.EditMenu, Key: page.KeyGPU, Text: "h100"})
	if c.state.To != estimator.H100CapacityBytes {
		t.Errorf("after picking the H100 the range ends at %d, want %d", c.state.To, estimator.H100CapacityBytes)
	}
	typeInto(d, c, "capacity_bytes", "96GiB")
	if c.state.To != 96<<30 {
		t.Errorf("after typing 96GiB the range ends at %d", c.state.To)
	}
	typeInto(d, c, page.KeyTo, "40GB")
	if c.state.To != 40_000_000_000 || c.state.Errs[page.KeyTo] != "" {
		t.Fatalf("to = %d (%q) after typing 40GB", c.state.To, c.state.Errs[page.KeyTo])
	}
	send(d, c, page.Edit{Kind: page.EditMenu, Key: page.KeyGPU, Text: "h200"})
	if c.state.To != 40_000_000_000 {
		t.Errorf("a typed range moved with the GPU: to = %d", c.state.To)
	}
	send(d, c, page.Edit{Kind: page.EditFit})
	if c.state.To != estimator.H200CapacityBytes || c.state.Typed {
		t.Errorf("fit range: to = %d, typed %v", c.state.To, c.state.Typed)
	}
	if q := c.state.Query(c.list); q.Has("to") {
		t.Errorf("a fitted range is written in the address: ?%s", q.Encode())
	}

	c, d = mountExplorer(t, nil)
	from, to := c.state.From, c.state.To
	typeInto(d, c, "rows", "900000")
	if c.state.From != from || c.state.To != to {
		t.Errorf("moving rows along rows moved the axis to %d..%d", c.state.From, c.state.To)
	}
	// The range kept is still nobody's: the next edit of another field
	// moves it to the config's default (the page settles each edit on the
	// state its address opens, and that address carries the range).
	typeInto(d, c, "hidden_size", "4096")
	if from, to := page.FitRange("rows", c.state.Cfg); c.state.From != from || c.state.To != to || c.state.Typed {
		t.Errorf("after an edit of hidden_size the range is %d..%d (typed %v), want the default %d..%d",
			c.state.From, c.state.To, c.state.Typed, from, to)
	}
}

// TestUnitsInFields: the fields take the estimator's units, and show the
// exact integer once committed; a fraction is refused with the reason.
func TestUnitsInFields(t *testing.T) {
	for _, tc := range []struct {
		control, text string
		key           string // the estimator field
		want          int64
		shown         string // the field after the commit
	}{
		{"capacity_bytes", "80GiB", "capacity_bytes", 80 << 30, "85899345920"},
		{"capacity_bytes", "80 GB", "capacity_bytes", 80_000_000_000, "80000000000"},
		{"capacity_bytes", "1.5TiB", "capacity_bytes", 3 << 39, "1649267441664"},
		{"capacity_bytes", "8e10", "capacity_bytes", 80_000_000_000, "80000000000"},
		{"rows", "64k", "rows", 64000, "64000"},
		{"rows", "64,902", "rows", 64902, "64902"},
		{page.KeyInUseGiB, "63.75", "in_use_bytes", 63*(1<<30) + 3<<28, "63.75"},
		{page.KeyInUseGiB, "1024MiB", "in_use_bytes", 1 << 30, "1"},
	} {
		t.Run(tc.control+"="+tc.text, func(t *testing.T) {
			c, d := mountExplorer(t, nil)
			typeInto(d, c, tc.control, tc.text)
			f, _ := estimator.FieldByKey(tc.key)
			if v, _ := f.Int(&c.state.Cfg); v != tc.want || c.state.Errs[page.ErrorKey(tc.control)] != "" {
				t.Fatalf("%s = %d (%q), want %d", tc.key, v, c.state.Errs[page.ErrorKey(tc.control)], tc.want)
			}
			if got := c.state.Text(tc.control); got != tc.text {
				t.Errorf("while typing the field shows %q, want %q", got, tc.text)
			}
			send(d, c, page.Edit{Kind: page.EditCommit, Key: tc.control})
			if got := c.state.Text(tc.control); got != tc.shown {
				t.Errorf("after the commit the field shows %q, want %q", got, tc.shown)
			}
		})
	}
	t.Run("fraction", func(t *testing.T) {
		c, d := mountExplorer(t, nil)
		typeInto(d, c, "rows", "1.5")
		msg := c.state.Errs["rows"]
		if !strings.Contains(msg, "whole") && !strings.Contains(msg, "fraction") {
			t.Errorf("rows=1.5: %q, want the reason", msg)
		}
		send(d, c, page.Edit{Kind: page.EditCommit, Key: "rows"})
		if got := c.state.Text("rows"); got != "1.5" {
			t.Errorf("a refused text was replaced on commit: %q", got)
		}
	})
	t.Run("range", func(t *testing.T) {
		c, d := mountExplorer(t, url.Values{"axis": {"in_use_bytes"}})
		typeInto(d, c, page.KeyTo, "64GiB")
		if c.state.To != 64<<30 {
			t.Errorf("to = %d after 64GiB (%q)", c.state.To, c.state.Errs[page.KeyTo])
		}
		send(d, c, page.Edit{Kind: page.EditCommit, Key: page.KeyTo})
		if got := c.state.Text(page.KeyTo); got != strconv.FormatInt(64<<30, 10) {
			t.Errorf("after the commit #axis-to shows %q", got)
		}
	})
}

// TestArrowKeysMove: next always finds a value beyond the field's, on a
// coarse log scale too (vocab_size 151,936, where the defect went
// 151,936 -> 153,538 -> 153,538).
func TestArrowKeysMove(t *testing.T) {
	for _, sp := range page.Sliders() {
		if sp.Key == page.KeyInUseGiB {
			sp = page.SliderSpec{Key: page.KeyInUseGiB, Max: 140}
		}
		st := page.New()
		c := &controls{View: controlViewOf(&st, nil)}
		s := c.slider(sp).(*widget.Slider)
		t.Run(sp.Key, func(t *testing.T) {
			v := s.Value
			up, _, ok := s.Next(v, true)
			if !ok || up <= v {
				t.Fatalf("right from %v: %v (%v)", v, up, ok)
			}
			down, _, ok := s.Next(up, false)
			if !ok || down >= up {
				t.Fatalf("left from %v: %v (%v)", up, down, ok)
			}
		})
	}
	s := &widget.Slider{Min: 1000, Max: 1 << 20, Log: true, Step: 1}
	up, _, _ := s.Next(151936, true)
	down, _, _ := s.Next(up, false)
	if up <= 151936 || down >= up {
		t.Errorf("vocab_size 151,936: right %v, then left %v", up, down)
	}
	if _, _, ok := s.Next(1<<20, true); ok {
		t.Errorf("right at the end of the slider moved")
	}
}

// TestGPUDocsMatchTable: docs/gpus.md has a row for every GPU of the
// menu, with the estimator's figure in bytes and its source.
func TestGPUDocsMatchTable(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", "docs", "gpus.md"))
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, g := range estimator.GPUs() {
		if g.ID == page.GPUCustom {
			continue
		}
		row := "| `" + g.ID + "` | " + g.Name + " | "
		i := strings.Index(doc, row)
		if i < 0 {
			t.Errorf("docs/gpus.md has no row for %s", g.ID)
			continue
		}
		line := doc[i : i+strings.Index(doc[i:], "\n")]
		if !strings.Contains(line, " | "+estimator.Group(g.CapacityBytes)+" | ") || !strings.Contains(line, g.Source[:40]) {
			t.Errorf("docs/gpus.md's %s row does not say %s bytes and its source: %s", g.ID, estimator.Group(g.CapacityBytes), line)
		}
	}
}

// TestImportDtypeAndNotes: a config.json's torch_dtype sets dtype_bytes,
// its expert count is shown as a note, and a syntax error gives its line
// and column.
func TestImportDtypeAndNotes(t *testing.T) {
	c, _ := mountExplorer(t, nil)
	rep := c.importFile([]byte(`{"model_type": "mixtral", "vocab_size": 32000, "hidden_size": 4096, "num_hidden_layers": 32,
 "num_experts_per_tok": 2, "num_local_experts": 8, "intermediate_size": 14336, "torch_dtype": "float32",
 "num_attention_heads": 32, "num_key_value_heads": 8}`)) // the heads: the resident count needs them (docs/model.md §14.1)
	if rep.Err != "" {
		t.Fatalf("refused: %s", rep.Err)
	}
	if got := c.state.Cfg.FC2.DtypeBytes; got != 4 {
		t.Errorf("dtype_bytes = %d after torch_dtype float32, want 4", got)
	}
	if got := c.state.Text("dtype_bytes"); got != "4" {
		t.Errorf("the dtype_bytes field shows %q", got)
	}
	if len(rep.Notes) != 1 || !strings.HasPrefix(rep.Notes[0], "num_local_experts = 8: the number of experts") {
		t.Errorf("notes %q, want the expert count", rep.Notes)
	}
	if !strings.Contains(strings.Join(rep.Recognised, "\n"), "torch_dtype → fc2.dtype_bytes = 4 (float32)") ||
		!strings.Contains(rep.Summary, "dtype_bytes") {
		t.Errorf("the report does not say where dtype_bytes came from: %q, %q", rep.Summary, rep.Recognised)
	}
	before := urlquery.Encode(c.state.Cfg).Encode()
	rep = c.importFile([]byte("{\n  \"vocab_size\": 5,\n}"))
	if !strings.Contains(rep.Err, "line 3, column 1: invalid character '}'") {
		t.Errorf("a syntax error says %q, want its line and column", rep.Err)
	}
	if urlquery.Encode(c.state.Cfg).Encode() != before {
		t.Errorf("a refused file changed the config")
	}
}

// TestPlanTextCountsSequences: the decision's plan gives its rows with
// the sequences they make.
func TestPlanTextCountsSequences(t *testing.T) {
	for _, tc := range []struct {
		o    estimator.Outcome
		want string
	}{
		{estimator.Outcome{Decision: estimator.Admit, Children: 1, ChildRows: 64902}, "whole: 1 child of 64,902 rows (15.845 sequences)"},
		{estimator.Outcome{Decision: estimator.Split, Children: 2, ChildRows: 8192}, "2 children, the largest 8,192 rows (2 sequences)"},
		{estimator.Outcome{Decision: estimator.Refuse, ChildRows: 4096}, "0 children (the last rung tried: children of 4,096 rows (1 sequence))"},
	} {
		t.Run(tc.want, func(t *testing.T) {
			if got := planText(tc.o, 4096); got != tc.want {
				t.Errorf("planText = %q", got)
			}
		})
	}
}
