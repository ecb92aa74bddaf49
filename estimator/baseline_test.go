package estimator

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

// docs/model.md §11: a baseline of your own.

// TestBaselineBadInput: every bad baseline is an error naming
// "baseline....", and the decoder returns the config it was given.
func TestBaselineBadInput(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ name, json, want string }{
		{"not an object", `{"baseline": 5}`, "baseline: must be a JSON object"},
		{"unknown key", `{"baseline": {"override": {}}}`, "baseline.override: is not a field of a baseline; allowed here: changes, overrides"},
		{"non-boolean change", `{"baseline": {"changes": {"gdn_early_release": "yes"}}}`,
			`baseline.changes.gdn_early_release: must be true or false, got "yes"`},
		{"change as a number", `{"baseline": {"changes": {"fc2_known_storage": 1}}}`,
			`baseline.changes.fc2_known_storage: must be true or false, got 1`},
		{"unknown change", `{"baseline": {"changes": {"gdn_release": true}}}`,
			"baseline.changes.gdn_release: is not a change; allowed here: fc2_known_storage, gdn_early_release, head_eager_workspace"},
		{"overrides not an object", `{"baseline": {"overrides": []}}`, "baseline.overrides: must be a JSON object"},
		{"group not an object", `{"baseline": {"overrides": {"model": 3}}}`, "baseline.overrides.model: must be a JSON object"},
		{"unknown group", `{"baseline": {"overrides": {"gpu": {}}}}`,
			"baseline.overrides.gpu: is not a field a baseline can override; allowed here: allocator_round_bytes, art, budget, fc2, head, model, profile, request, resident"},
		{"unknown field", `{"baseline": {"overrides": {"model": {"layers": 4}}}}`,
			"baseline.overrides.model.layers: is not a field a baseline can override; allowed here: hidden_size, intermediate_size, linear_conv_kernel_dim, linear_key_head_dim, linear_num_key_heads, linear_num_value_heads, linear_value_head_dim, moe_intermediate_size, num_experts_per_tok, num_hidden_layers, shared_expert_intermediate_size, vocab_size"},
		{"empty key", `{"baseline": {"overrides": {"": 1}}}`,
			`baseline.overrides key "": is not a field a baseline can override; allowed here: allocator_round_bytes, art, budget, fc2, head, model, profile, request, resident`},
		{"terms", `{"baseline": {"overrides": {"terms": []}}}`,
			"baseline.overrides.terms: cannot be overridden: the terms are the config's, and each term's revision says which revision holds it"},
		{"baseline", `{"baseline": {"overrides": {"baseline": {}}}}`,
			"baseline.overrides.baseline: cannot be overridden: a baseline has no baseline of its own"},
		{"changes", `{"baseline": {"overrides": {"changes": {"gdn_early_release": true}}}}`,
			"baseline.overrides.changes: cannot be overridden: the baseline's toggles go in baseline.changes"},
		{"out of range", `{"baseline": {"overrides": {"budget": {"capacity_bytes": 0}}}}`,
			"baseline.overrides.budget.capacity_bytes: must be an integer in 1..1,125,899,906,842,624, got 0"},
		{"fraction", `{"baseline": {"overrides": {"request": {"rows": 1.5}}}}`,
			"baseline.overrides.request.rows: must be a whole number; must be an integer in 1..2,147,483,647, got 1.5"},
		{"null without a default", `{"baseline": {"overrides": {"model": {"hidden_size": null}}}}`,
			"baseline.overrides.model.hidden_size: must be an integer in 1..1,048,576, got null"},
		{"not one of", `{"baseline": {"overrides": {"fc2": {"dtype_bytes": 3}}}}`,
			"baseline.overrides.fc2.dtype_bytes: must be one of 1, 2, 4, 8, got 3"},
		{"in use above its capacity", `{"baseline": {"overrides": {"budget": {"capacity_bytes": 85020000000}}}, "budget": {"in_use_bytes": 90000000000}}`,
			"baseline.overrides.budget.in_use_bytes: must be in 0..capacity_bytes (85,020,000,000), got 90,000,000,000"},
		{"rows below projected rows", `{"baseline": {"overrides": {"request": {"rows": 100}}}, "request": {"projected_rows": 200}}`,
			"baseline.overrides.request.projected_rows: must be in 1..rows (100), got 200"},
		{"both revisions", `{"request": {"rows": 0}, "baseline": {"overrides": {"request": {"rows": 0}}}}`,
			"request.rows: must be an integer in 1..2,147,483,647, got 0; baseline.overrides.request.rows: must be an integer in 1..2,147,483,647, got 0"},
		{"the candidate's mistake once", `{"head": {"chunk_rows": 0}, "baseline": {}}`,
			"head.chunk_rows: must be an integer in 1..2,147,483,647, got 0"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base := Default()
			base.Request.Rows = 1234
			got, err := decodeConfigOnto(base, []byte(tt.json))
			if err == nil || err.Error() != tt.want {
				t.Fatalf("DecodeConfig(%s):\n got %v\nwant %s", tt.json, err, tt.want)
			}
			if marshalConfigString(got) != marshalConfigString(base) {
				t.Errorf("on error the decoder returned a changed config")
			}
		})
	}
}

// TestBaselineOverflowNamesTheRevision: an overflow of the baseline's own
// config is named "baseline".
func TestBaselineOverflowNamesTheRevision(t *testing.T) {
	t.Parallel()
	c := Default()
	c.Baseline = &Baseline{Overrides: Overrides{
		"request.rows": {Int: 1<<31 - 1}, "model.num_experts_per_tok": {Int: 1024},
		"fc2.output_width": {Int: 1 << 20}, "fc2.dtype_bytes": {Int: 8},
	}}
	_, err := Estimate(c)
	var e *Error
	if !errors.As(err, &e) || e.Field != "baseline" || !strings.Contains(e.Message, "fc2.output_width") {
		t.Fatalf("Estimate: %v, want an *Error named baseline", err)
	}
}

// TestBaselineDefaultsAfterOverrides: an override of hidden_size gives the
// baseline its own output_width and retained_per_row_bytes, unless the
// config sets them; null returns a field to the baseline's default.
func TestBaselineDefaultsAfterOverrides(t *testing.T) {
	t.Parallel()
	c := mustDecode(t, []byte(`{"baseline": {"overrides": {"model": {"hidden_size": 4096}}}}`))
	rv, err := c.ResolveRevisions()
	if err != nil {
		t.Fatal(err)
	}
	b, k := rv.Rev[0], rv.Rev[1]
	if b.H != 4096 || b.O != 4096 || b.RetainedPerRow != 48*4096*2 || k.O != 2048 || k.RetainedPerRow != 48*2048*2 {
		t.Errorf("baseline H %d O %d retained %d; candidate O %d retained %d", b.H, b.O, b.RetainedPerRow, k.O, k.RetainedPerRow)
	}
	if !rv.Own || b.Changes != (Changes{}) || k.Changes != Default().Changes {
		t.Errorf("own %v, changes %+v / %+v", rv.Own, b.Changes, k.Changes)
	}
	c, err = DecodeConfig([]byte(`{"fc2": {"output_width": 1000}, "request": {"projected_rows": 500},
		"baseline": {"changes": {"fc2_known_storage": true}, "overrides": {"model": {"hidden_size": 4096}, "request": {"projected_rows": null}}}}`))
	if err != nil {
		t.Fatal(err)
	}
	rv, _ = c.ResolveRevisions()
	if rv.Rev[0].O != 1000 || rv.Rev[0].P != 64902 || rv.Rev[1].P != 500 || !rv.Rev[0].Changes.FC2KnownStorage || rv.Rev[0].Changes.GDNEarlyRelease {
		t.Errorf("baseline O %d P %d changes %+v, candidate P %d", rv.Rev[0].O, rv.Rev[0].P, rv.Rev[0].Changes, rv.Rev[1].P)
	}
}

// TestBaselineJSONRoundTrip: a config with a baseline writes back to JSON
// that decodes to the same config; without one, no "baseline" key at all.
func TestBaselineJSONRoundTrip(t *testing.T) {
	t.Parallel()
	rng := newRand()
	for i := 0; i < 200; i++ {
		c := randomBaseline(t, rng, randomConfig(rng))
		if _, err := c.ResolveRevisions(); err != nil {
			continue
		}
		out := MarshalConfig(c)
		back, err := DecodeConfig(out)
		if err != nil {
			t.Fatalf("%s: %v", out, err)
		}
		if marshalConfigString(back) != string(out) {
			t.Fatalf("round trip of %s gave %s", out, MarshalConfig(back))
		}
	}
	if s := marshalConfigString(Default()); strings.Contains(s, "baseline") {
		t.Errorf("a config without a baseline writes %s", s)
	}
	c, err := DecodeConfig([]byte(`{"baseline": null}`))
	if err != nil || c.Baseline != nil {
		t.Errorf(`"baseline": null gives %+v, %v`, c.Baseline, err)
	}
}

// TestNoBaselineIsUnchanged: "baseline": null and no baseline give the
// golden bytes; "baseline": {} (a baseline of its own that overrides
// nothing) gives the same decisions and bytes, plus each revision's
// available bytes.
func TestNoBaselineIsUnchanged(t *testing.T) {
	t.Parallel()
	for name, c := range goldenConfigs() {
		plain, err := Estimate(c)
		if err != nil {
			t.Fatal(err)
		}
		viaNull, err := decodeConfigOnto(c, []byte(`{"baseline": null}`))
		if err != nil {
			t.Fatal(err)
		}
		res, err := Estimate(viaNull)
		if err != nil {
			t.Fatal(err)
		}
		a, _ := json.Marshal(plain)
		b, _ := json.Marshal(res)
		if string(a) != string(b) || strings.Count(string(a), `"available_bytes"`) != 1 {
			t.Errorf("%s: without a baseline\n%s\nwith null\n%s", name, a, b)
		}
		c.Baseline = &Baseline{}
		own, err := Estimate(c)
		if err != nil {
			t.Fatal(err)
		}
		for rev, o := range []*Outcome{&own.Baseline, &own.Candidate} {
			if o.AvailableBytes == nil || *o.AvailableBytes != plain.AvailableBytes {
				t.Errorf("%s: revision %d available %v, want %d", name, rev, o.AvailableBytes, plain.AvailableBytes)
			}
			o.AvailableBytes = nil
		}
		if c, _ := json.Marshal(own); string(c) != string(a) {
			t.Errorf("%s: with an empty baseline\n%s\nwant\n%s", name, c, a)
		}
	}
}

// TestRevisionsSet: Set moves a field in both revisions; rows carries each
// revision's P and T from its own N, P and T; Check names the baseline.
func TestRevisionsSet(t *testing.T) {
	t.Parallel()
	c := Default()
	c.Request.ProjectedRows, c.Request.TargetRows = Int64(50000), Int64(333)
	c.Baseline = &Baseline{Overrides: Overrides{"request.rows": {Int: 100000}, "request.target_rows": {Default: true},
		"budget.capacity_bytes": {Int: H100CapacityBytes}}}
	rv, err := c.ResolveRevisions()
	if err != nil {
		t.Fatal(err)
	}
	if err := rv.Set("rows", 200000); err != nil {
		t.Fatal(err)
	}
	b, k := rv.Rev[0], rv.Rev[1]
	if b.N != 200000 || b.P != 100000 || b.T != 100000 || k.N != 200000 || k.P != ceilDiv(200000*50000, 64902) || k.T != ceilDiv(200000*333, 64902) {
		t.Errorf("baseline N %d P %d T %d; candidate N %d P %d T %d", b.N, b.P, b.T, k.N, k.P, k.T)
	}
	if err := rv.Set("projected_rows", 7); err != nil || rv.Rev[0].P != 7 || rv.Rev[1].P != 7 {
		t.Errorf("projected_rows: %v, %d %d", err, rv.Rev[0].P, rv.Rev[1].P)
	}
	if err := rv.Check(); err == nil || err.Error() != "request.target_rows: must be in 0..projected_rows (7), got 1,027; baseline.overrides.request.target_rows: must be in 0..projected_rows (7), got 100,000" {
		t.Errorf("Check: %v", err)
	}
	if _, err := rv.Estimate(); err == nil {
		t.Errorf("Estimate of revisions that do not check")
	}
	before := rv
	for _, tt := range []struct {
		key  string
		v    int64
		want string
	}{
		{"rows", 0, "request.rows: must be an integer in 1..2,147,483,647, got 0"},
		{"in_use_bytes", -1, "budget.in_use_bytes: must be an integer in 0..1,125,899,906,842,624, got -1"},
		{"grad", 1, "grad: is not a field that can be set in both revisions; allowed: rows, vocab_size, chunk_rows, num_experts_per_tok, input_width, output_width, hidden_size, sequence_rows, capacity_bytes, in_use_bytes, num_hidden_layers, moe_intermediate_size, expert_parallel, projected_rows, target_rows"},
	} {
		if err := rv.Set(tt.key, tt.v); err == nil || err.Error() != tt.want {
			t.Errorf("Set(%s, %d): %v, want %s", tt.key, tt.v, err, tt.want)
		}
	}
	if !reflect.DeepEqual(rv, before) {
		t.Errorf("a refused Set changed the revisions")
	}
	// in_use set in both: the H100 baseline cannot hold what the H200 can.
	rv, _ = c.ResolveRevisions()
	if err := rv.Set("in_use_bytes", 90_000_000_000); err != nil {
		t.Fatal(err)
	}
	if err := rv.Check(); err == nil || err.Error() != "baseline.overrides.budget.in_use_bytes: must be in 0..capacity_bytes (85,020,000,000), got 90,000,000,000" {
		t.Errorf("Check: %v", err)
	}
}

// TestSweepBaselineInvalidPerRevision: along in_use_bytes, the H100
// baseline turns invalid above its capacity while the H200 still decides.
func TestSweepBaselineInvalidPerRevision(t *testing.T) {
	t.Parallel()
	c := Default()
	c.Baseline = &Baseline{Changes: c.Changes, Overrides: Overrides{"budget.capacity_bytes": {Int: H100CapacityBytes}}}
	res, err := Sweep(c, "in_use_bytes", 0, H200CapacityBytes+10, 64)
	if err != nil {
		t.Fatal(err)
	}
	last := func(fs []Flip) Flip { return fs[len(fs)-1] }
	b, k := last(res.Baseline.Flips), last(res.Candidate.Flips)
	if b.ToDecision != Invalid || b.First != H100CapacityBytes+1 || !strings.HasPrefix(b.Message, "baseline.overrides.budget.in_use_bytes: ") {
		t.Errorf("baseline's last flip %+v", b)
	}
	if k.ToDecision != Invalid || k.First != H200CapacityBytes+1 || !strings.HasPrefix(k.Message, "budget.in_use_bytes: ") {
		t.Errorf("candidate's last flip %+v", k)
	}
	// x outside the field's range: each revision's message names it.
	res, err = Sweep(c, "rows", 0, 10, 16)
	if err != nil {
		t.Fatal(err)
	}
	if b, k := res.Baseline.Flips[0], res.Candidate.Flips[0]; b.Message != "baseline.overrides."+k.Message || k.Message != "request.rows: must be an integer in 1..2,147,483,647, got 0" {
		t.Errorf("flips from rows 0: %+v, %+v", b, k)
	}
	s, _ := NewSweeper(c, "in_use_bytes")
	pt := s.Point(H100CapacityBytes + 1)
	if pt.Error != "" || pt.Rev[0].Decision != Invalid || pt.Rev[1].Decision == Invalid || pt.AvailableBytes != pt.Rev[1].AvailableBytes {
		t.Errorf("point %+v", pt)
	}
}

// TestRevisionsPointIsSweepPoint: Set then Point prices what a sweep along
// that axis prices at that x, field for field, with and without a
// baseline of its own; where valid, Estimate of the unmoved config agrees
// with Point of the unmoved revisions.
func TestRevisionsPointIsSweepPoint(t *testing.T) {
	t.Parallel()
	rng := newRand()
	for i := 0; i < 300; i++ {
		c := randomConfig(rng)
		if i%3 != 0 {
			c = randomBaseline(t, rng, c)
		}
		rv, err := c.ResolveRevisions()
		if err != nil {
			continue
		}
		pt := rv.Point()
		if res, err := Estimate(c); err == nil {
			for rev, o := range []Outcome{res.Baseline, res.Candidate} {
				pr := pt.Rev[rev]
				if pr.Decision != o.Decision || pr.Children != o.Children || pr.RequiredBytes != int64(o.RequiredBytes) || pr.LowerBoundBytes != int64(o.LowerBoundBytes) {
					t.Fatalf("config %d revision %d: point %+v, estimate %v/%d/%d/%d", i, rev, pr, o.Decision, o.Children, o.RequiredBytes, o.LowerBoundBytes)
				}
			}
		} else if pt.Rev[0].Error == "" && pt.Rev[1].Error == "" {
			t.Fatalf("config %d: Estimate fails (%v), Point prices both", i, err)
		}
		axis := Axes()[rng.IntN(len(Axes()))]
		f, _ := FieldByKey(axis)
		x := between(rng, f.Min, min(f.Max, 1<<20))
		if axis == "capacity_bytes" || axis == "in_use_bytes" {
			x = between(rng, 0, 1<<40)
		}
		moved := rv
		if err := moved.Set(axis, x); err != nil {
			t.Fatal(err)
		}
		s, err := rv.Sweeper(axis)
		if err != nil {
			t.Fatal(err)
		}
		want := s.Point(x)
		got := moved.Point()
		got.X = x
		if got != want {
			t.Fatalf("config %d along %s at %d:\nSet+Point %+v\nSweeper   %+v", i, axis, x, got, want)
		}
	}
}

// TestZeroRevisions: revisions not built by ResolveRevisions are refused,
// never a panic.
func TestZeroRevisions(t *testing.T) {
	t.Parallel()
	var rv Revisions
	if _, err := rv.Sweeper("rows"); err == nil {
		t.Error("a sweeper of zero revisions")
	}
	if pt := rv.Point(); pt.Error == "" || pt.Rev[0].Decision != Invalid {
		t.Errorf("point of zero revisions %+v", pt)
	}
	if err := rv.Set("rows", 5); err != nil || rv.Rev[1].N != 5 {
		t.Errorf("Set: %v", err)
	}
	if _, err := rv.Estimate(); err == nil {
		t.Error("an estimate of zero revisions")
	}
}

// TestRevisionString: the names the page's element ids and JSON keys use.
func TestRevisionString(t *testing.T) {
	t.Parallel()
	for rev, want := range map[Revision]string{BaselineRev: "baseline", CandidateRev: "candidate"} {
		if got := rev.String(); got != want {
			t.Errorf("Revision(%d).String() = %q, want %q", int(rev), got, want)
		}
	}
}
