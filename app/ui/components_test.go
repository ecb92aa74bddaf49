package ui

import (
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

func TestSliderRender(t *testing.T) {
	s := &widget.Slider{Key: page.KeyInUseGiB, ErrKey: "in_use_bytes", Label: "in use", Min: 0, Max: 140, Step: 0.25,
		Decimal: true, Value: 63.75, Text: "63.75", Error: "is wrong", ValueText: valueText(page.KeyInUseGiB, "63.75", "")}
	d := app.NewClientTester(s)
	defer d.Close()
	for _, tc := range []app.TestUIDescriptor{
		{Path: app.TestPath(0, 2), Expected: app.Span().ID("error-in_use_bytes").Class("control-error").Aria("live", "polite")},
		{Path: app.TestPath(0, 2, 0), Expected: app.Text("is wrong")},
		{Path: app.TestPath(0, 1, 0), Expected: app.Input().Type("range").ID("slider-in_use_gib").
			Min(0).Max(widget.Steps).Step(1).Value(s.Position(63.75)).Aria("label", "in use").Aria("valuetext", "63.75 GiB")},
		// The control's events are taken on its box (slider.Render).
		{Path: app.TestPath(0), Expected: app.Div().Class("control", "has-error").OnInput(noEvent).OnChange(noEvent).OnKeyDown(noEvent)},
	} {
		if err := app.TestMatch(s, tc); err != nil {
			t.Error(err)
		}
	}
	if got := s.Format(s.ValueAt(s.Position(63.75))); got != "63.75" {
		t.Errorf("the GiB slider sends %q", got)
	}
}

func TestDecisionPanelRender(t *testing.T) {
	for _, dec := range []estimator.Decision{estimator.Admit, estimator.Split, estimator.Refuse} {
		t.Run(dec.String(), func(t *testing.T) {
			p := &decisionPanel{Rev: estimator.CandidateRev, Title: "Candidate", Ready: true, Axis: "rows", Flips: "admits up to 5 rows, splits up to the range's end, 9",
				Outcome: estimator.Outcome{Decision: dec, Children: 2, ChildRows: 10}}
			d := app.NewClientTester(p)
			for _, tc := range []app.TestUIDescriptor{
				// The title and subtitle stand in the section (no header).
				{Path: app.TestPath(0, 2, 0), Expected: app.Span().Class("decision")},
				{Path: app.TestPath(0, 2, 0, 0), Expected: app.Text(dec.String())},
				{Path: app.TestPath(0, 6), Expected: app.P().ID("flips-candidate").Class("flips")},
				{Path: app.TestPath(0, 6, 1), Expected: app.Text("admits up to 5 rows, splits up to the range's end, 9")},
				// No resident result: the panel says the weights are not counted.
				{Path: app.TestPath(0, 7), Expected: app.P().ID("no-resident-candidate").Class("resident not-counted")},
				{Path: app.TestPath(0, 7, 0), Expected: app.Text(NoResidentLine)},
			} {
				if err := app.TestMatch(p, tc); err != nil {
					t.Errorf("%v: %v", dec, err)
				}
			}
			d.Close()
		})
	}
	// Before the first estimate there is no decision to show.
	p := &decisionPanel{Rev: estimator.BaselineRev}
	d := app.NewClientTester(p)
	defer d.Close()
	if err := app.TestMatch(p, app.TestUIDescriptor{Path: app.TestPath(0, 2), Expected: app.P().Class("pending")}); err != nil {
		t.Error(err)
	}
}

func TestBreakdownRows(t *testing.T) {
	base := estimator.Outcome{
		Stages: []estimator.StageBytes{
			{Name: "head", Bytes: 300, Tensors: []estimator.TensorBytes{{Name: "target_buffer_0", Bytes: 100}, {Name: "target_buffer_1", Bytes: 100}, {Name: "target_buffer_2", Bytes: 100}}},
			{Name: "gdn", Bytes: 50, Tensors: []estimator.TensorBytes{{Name: "base_out", Bytes: 20}, {Name: "qkv", Bytes: 30}}},
		},
		Retained:      estimator.StageBytes{Name: "retained", Bytes: 7, Tensors: []estimator.TensorBytes{{Name: "logprobs", Bytes: 7}}},
		RequiredBytes: 400,
	}
	cand := estimator.Outcome{
		Stages: []estimator.StageBytes{
			{Name: "head", Bytes: 700, Tensors: []estimator.TensorBytes{{Name: "logits_bf16", Bytes: 100}, {Name: "logits_fp32", Bytes: 200}}},
			{Name: "gdn", Bytes: 20, Tensors: []estimator.TensorBytes{{Name: "base_out", Bytes: 20}}},
		},
		Retained:      estimator.StageBytes{Name: "retained", Bytes: 7, Tensors: []estimator.TensorBytes{{Name: "logprobs", Bytes: 7}}},
		RequiredBytes: 800,
	}
	rows := breakdownRows(base, cand)
	type row struct {
		label      string
		b, c       estimator.Bytes
		hasB, hasC bool
	}
	want := []row{
		{"head", 300, 700, true, true},
		{"target_buffer_0", 100, 0, true, false},
		{"target_buffer_1", 100, 0, true, false},
		{"target_buffer_2", 100, 0, true, false},
		{"logits_bf16", 0, 100, false, true},
		{"logits_fp32", 0, 200, false, true},
		{"gdn", 50, 20, true, true},
		{"base_out", 20, 20, true, true},
		{"qkv", 30, 0, true, false},
		{"retained", 7, 7, true, true},
		{"logprobs", 7, 7, true, true},
		{"ephemeral peak (largest child)", 0, 0, true, true},
		{"retained (all children)", 0, 0, true, true},
		{"required (x safety)", 400, 800, true, true},
		{"lower bound", 0, 0, true, true},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d: %+v", len(rows), len(want), rows)
	}
	for i, w := range want {
		r := rows[i]
		if r.Label != w.label || r.Base != w.b || r.Cand != w.c || r.HasBase != w.hasB || r.HasCd != w.hasC {
			t.Errorf("row %d: %+v, want %+v", i, r, w)
		}
	}
}

func TestBreakdownRender(t *testing.T) {
	b := &breakdown{Ready: true, Baseline: estimator.Outcome{RequiredBytes: 1 << 30}, Candidate: estimator.Outcome{RequiredBytes: 3 << 29}}
	d := app.NewClientTester(b)
	defer d.Close()
	// rows: retained (0), then the four totals; required is the fourth line
	for _, tc := range []app.TestUIDescriptor{
		{Path: app.TestPath(0), Expected: app.Table().ID("breakdown").Class("breakdown")},
		{Path: app.TestPath(0, 2, 3, 3, 0), Expected: app.Text("+536,870,912\n+0.500 GiB")},
		{Path: app.TestPath(0, 2, 3, 1, 0), Expected: app.Text("1,073,741,824\n1.000 GiB")},
	} {
		if err := app.TestMatch(b, tc); err != nil {
			t.Error(err)
		}
	}
}

// noEvent stands for a handler: TestMatch checks that one is set.
func noEvent(app.Context, app.Event) {}

// TestSwitchDocsFromRegistry: a switch of a bool field shows the field
// registry's doc; only the switches standing for a number field have
// their own.
func TestSwitchDocsFromRegistry(t *testing.T) {
	for _, f := range estimator.Fields() {
		if f.Kind != estimator.BoolField {
			continue
		}
		t.Run(f.Key, func(t *testing.T) {
			if got := switchDoc(f.Key); got != f.Doc || got == "" {
				t.Errorf("switchDoc(%q) = %q, want the registry's %q", f.Key, got, f.Doc)
			}
		})
	}
	for k := range switchDocs {
		if f, ok := estimator.FieldByKey(k); !ok || f.Kind == estimator.BoolField {
			t.Errorf("switchDocs[%q] overrides a bool field's doc (or no field)", k)
		}
	}
}
