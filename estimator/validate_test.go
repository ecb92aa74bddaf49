package estimator

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// docs/model.md §2's validation, from its text: each range written out
// here (not read from the package's field table), each value outside it
// refused with an error naming the field, never clamped.

type specRange struct {
	path   string
	lo, hi int64
	oneOf  []int64
}

// specRanges are the limits of docs/model.md §2 ("counts are integers >= 1,
// except in_use_bytes, retained_per_row_bytes, topk, T, K and Hk, which
// may be 0"), plus the package's documented choices for the ranges it
// leaves open (doc.go): num_hidden_layers and topk <= 2^20,
// sequence_rows and chunk_rows <= 2^31-1, retained_per_row_bytes <= 2^50.
// projected_rows, target_rows and in_use_bytes are bounded by rows,
// projected_rows and capacity_bytes; their own upper limits are those.
var specRanges = []specRange{
	{path: "model.vocab_size", lo: 1, hi: 1 << 26},
	{path: "model.hidden_size", lo: 1, hi: 1 << 20},
	{path: "model.num_hidden_layers", lo: 1, hi: 1 << 20},
	{path: "model.num_experts_per_tok", lo: 0, hi: 1024},
	{path: "model.moe_intermediate_size", lo: 1, hi: 1 << 20},
	{path: "model.linear_num_key_heads", lo: 0, hi: 1 << 20},
	{path: "model.linear_key_head_dim", lo: 1, hi: 1 << 20},
	{path: "model.linear_num_value_heads", lo: 1, hi: 1 << 20},
	{path: "model.linear_value_head_dim", lo: 1, hi: 1 << 20},
	// docs/model.md §13.3's ranges.
	{path: "model.shared_expert_intermediate_size", lo: 0, hi: 1 << 20},
	{path: "model.linear_conv_kernel_dim", lo: 1, hi: 1 << 10},
	{path: "model.intermediate_size", lo: 0, hi: 1 << 20},
	{path: "head.padded_vocab_multiple", lo: 1, hi: 1 << 16},
	{path: "art.adapter_gradient_bytes_per_layer", lo: 0, hi: 1 << 40},
	{path: "art.adapter_gradient_outside_bytes", lo: 0, hi: 1 << 40},
	{path: "art.gdn_out_proj_lora_rank", lo: 0, hi: 1 << 16},
	{path: "art.backward_state", lo: 0, hi: 3},
	{path: "art.output_device", lo: 0, hi: 2},
	{path: "art.gradient_correction", lo: 0, hi: 2},
	{path: "art.host_memory_bytes", lo: 0, hi: 1 << 50},
	{path: "art.host_available_bytes", lo: 0, hi: 1 << 50},
	{path: "art.host_ranks", lo: 1, hi: 1024},
	{path: "art.lora_slot_bytes", lo: 0, hi: 1 << 40},
	{path: "request.rows", lo: 1, hi: 1<<31 - 1},
	{path: "request.sequence_rows", lo: 1, hi: 1<<31 - 1},
	{path: "request.projected_rows", lo: 1, hi: 1<<31 - 1},
	{path: "request.target_rows", lo: 0, hi: 1<<31 - 1},
	{path: "request.outputs.topk", lo: 0, hi: 1 << 20},
	{path: "head.chunk_rows", lo: 1, hi: 1<<31 - 1},
	{path: "fc2.input_width", lo: 1, hi: 1 << 20},
	{path: "fc2.output_width", lo: 1, hi: 1 << 20},
	{path: "fc2.dtype_bytes", oneOf: []int64{1, 2, 4, 8}},
	{path: "fc2.expert_parallel", lo: 1, hi: 1024},
	{path: "budget.capacity_bytes", lo: 1, hi: 1 << 50},
	{path: "budget.in_use_bytes", lo: 0, hi: 1 << 50},
	{path: "budget.reserve_permille", lo: 0, hi: 999},
	{path: "budget.safety_percent", lo: 100, hi: 1000},
	{path: "budget.retained_per_row_bytes", lo: 0, hi: 1 << 50},
	{path: "allocator_round_bytes", lo: 1, hi: 1 << 30},
}

// atLimit returns the default config with path at v, and the fields that
// bound it moved out of the way so that v is valid if its own range
// allows it.
func atLimit(path string, v int64) Config {
	c := Default()
	f, _ := FieldByKey(path)
	switch path {
	case "request.projected_rows", "request.target_rows":
		c.Request.Rows = 1<<31 - 1
	case "budget.in_use_bytes":
		c.Budget.CapacityBytes = 1 << 50
	}
	f.SetInt(&c, v)
	return c
}

// namesField reports whether err is a field error list whose entries
// include path, and whether that entry states the allowed range.
func namesField(err error, path string, r specRange) (named, ranged bool) {
	for _, e := range FieldErrors(err) {
		if e.Field != path {
			continue
		}
		named = true
		msg := strings.ReplaceAll(e.Message, ",", "")
		if r.oneOf != nil {
			ranged = strings.Contains(msg, "1 2 4 8")
		} else {
			ranged = strings.Contains(msg, strconv.FormatInt(r.lo, 10)) && strings.Contains(msg, strconv.FormatInt(r.hi, 10))
		}
	}
	return named, ranged
}

// TestSpecRangesCoverFields: every input of the package has a range here,
// and every range here is an input.
func TestSpecRangesCoverFields(t *testing.T) {
	t.Parallel()
	have := map[string]bool{}
	for _, r := range specRanges {
		have[r.path] = true
		f, ok := FieldByKey(r.path)
		if !ok || f.Kind != IntField {
			t.Errorf("%s: not an integer field of the package", r.path)
		}
	}
	for _, f := range append(Fields(), ArtFields()...) {
		if f.Kind == IntField && !have[f.Path] {
			t.Errorf("field %s has no range in docs/model.md §2's table here", f.Path)
		}
		if g, ok := FieldByKey(f.Key); !ok || g.Path != f.Path || g.Key != f.Key {
			t.Errorf("FieldByKey(%q) does not find %s", f.Key, f.Path)
		}
	}
}

// TestSpecRanges: each end of each range is accepted; one past it, and
// the extremes of int64, are refused by Resolve, Estimate and DecodeConfig
// with an error naming the field and its range. Nothing is clamped.
func TestSpecRanges(t *testing.T) {
	t.Parallel()
	for _, r := range specRanges {
		var good, bad []int64
		if r.oneOf != nil {
			good = r.oneOf
			bad = []int64{0, 3, 5, 6, 7, 9, 16, -1}
		} else {
			good = []int64{r.lo, r.hi}
			bad = []int64{r.lo - 1, r.hi + 1}
		}
		bad = append(bad, math.MinInt64, math.MaxInt64)
		for _, v := range good {
			c := atLimit(r.path, v)
			if _, err := c.Resolve(); err != nil {
				t.Errorf("%s = %d: refused: %v", r.path, v, err)
			}
			body := nestedJSON(r.path, strconv.FormatInt(v, 10))
			if r.path == "budget.in_use_bytes" {
				body = `{"budget": {"capacity_bytes": 1125899906842624, "in_use_bytes": ` + strconv.FormatInt(v, 10) + `}}`
			}
			if r.path == "request.projected_rows" || r.path == "request.target_rows" {
				body = `{"request": {"rows": 2147483647, "` + r.path[len("request."):] + `": ` + strconv.FormatInt(v, 10) + `}}`
			}
			if got, err := DecodeConfig([]byte(body)); err != nil {
				t.Errorf("%s: refused: %v", body, err)
			} else if f, _ := FieldByKey(r.path); func() bool { x, _ := f.Int(&got); return x != v }() {
				t.Errorf("%s: decoded %s", body, f.Text(&got))
			}
		}
		for _, v := range bad {
			c := atLimit(r.path, v)
			_, err := c.Resolve()
			named, ranged := namesField(err, r.path, r)
			if !named {
				t.Errorf("%s = %d: Resolve error %v does not name %s", r.path, v, err, r.path)
			} else if !ranged && v != r.hi+1 { // hi+1 of a bounded field may name the bound instead
				t.Errorf("%s = %d: error %v does not state the range", r.path, v, err)
			}
			if res, err := Estimate(c); err == nil {
				t.Errorf("%s = %d: Estimate accepted it: %+v", r.path, v, res.Baseline)
			}
			got, err := DecodeConfig([]byte(nestedJSON(r.path, strconv.FormatInt(v, 10))))
			if named, _ := namesField(err, r.path, r); !named {
				t.Errorf("%s = %d: DecodeConfig error %v does not name the field", r.path, v, err)
			}
			if marshalConfigString(got) != marshalConfigString(Default()) {
				t.Errorf("%s = %d: DecodeConfig returned a changed config with its error", r.path, v)
			}
		}
	}
}

// nestedJSON wraps value in the objects of a field's path.
func nestedJSON(path, value string) string {
	parts := strings.Split(path, ".")
	body := value
	for i := len(parts) - 1; i >= 0; i-- {
		body = fmt.Sprintf("{%q: %s}", parts[i], body)
	}
	return body
}

// TestCrossFieldLimits: P <= N, T <= P, in_use <= capacity, with
// defaults taking part (T defaults to P, P to N).
func TestCrossFieldLimits(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, json, field string
		ok                bool
	}{
		{"P = N", `{"request": {"rows": 100, "projected_rows": 100}}`, "", true},
		{"P > N", `{"request": {"rows": 100, "projected_rows": 101}}`, "request.projected_rows", false},
		{"P > default N", `{"request": {"projected_rows": 64903}}`, "request.projected_rows", false},
		{"T = P", `{"request": {"projected_rows": 50, "target_rows": 50}}`, "", true},
		{"T > P", `{"request": {"projected_rows": 50, "target_rows": 51}}`, "request.target_rows", false},
		{"T > default P = N", `{"request": {"rows": 100, "target_rows": 101}}`, "request.target_rows", false},
		{"T = 0", `{"request": {"target_rows": 0}}`, "", true},
		{"P = 0", `{"request": {"projected_rows": 0}}`, "request.projected_rows", false},
		{"in_use = capacity", `{"budget": {"capacity_bytes": 1000, "in_use_bytes": 1000}}`, "", true},
		{"in_use > capacity", `{"budget": {"capacity_bytes": 1000, "in_use_bytes": 1001}}`, "budget.in_use_bytes", false},
		{"in_use > default capacity", `{"budget": {"in_use_bytes": 150754820097}}`, "budget.in_use_bytes", false},
	} {
		c, err := DecodeConfig([]byte(tc.json))
		if tc.ok {
			if err != nil {
				t.Errorf("%s: %v", tc.name, err)
			} else if _, err := Estimate(c); err != nil {
				t.Errorf("%s: Estimate: %v", tc.name, err)
			}
			continue
		}
		if named, _ := namesField(err, tc.field, specRange{}); !named {
			t.Errorf("%s: error %v does not name %s", tc.name, err, tc.field)
		}
	}
	// The same limits on a Config built in Go.
	c := Default()
	c.Request.Rows, c.Request.ProjectedRows, c.Request.TargetRows = 10, Int64(5), Int64(6)
	if named, _ := namesField(func() error { _, err := Estimate(c); return err }(), "request.target_rows", specRange{}); !named {
		t.Error("T > P accepted by Estimate")
	}
	// A full budget is valid and refuses everything.
	c = Default()
	c.Budget.InUseBytes = c.Budget.CapacityBytes
	res := mustEstimate(t, c)
	if res.AvailableBytes != 0 || res.Baseline.Decision != Refuse || res.Candidate.Decision != Refuse {
		t.Errorf("full device: available %d, %v / %v", res.AvailableBytes, res.Baseline.Decision, res.Candidate.Decision)
	}
}

// TestEveryBadFieldReported: one error per bad field, each named.
func TestEveryBadFieldReported(t *testing.T) {
	t.Parallel()
	_, err := DecodeConfig([]byte(`{"model": {"vocab_size": 0, "hidden_size": -1}, "request": {"rows": 0},
		"fc2": {"dtype_bytes": 3}, "budget": {"safety_percent": 99, "reserve_permille": 1000}, "allocator_round_bytes": 0}`))
	want := []string{"model.vocab_size", "model.hidden_size", "request.rows", "fc2.dtype_bytes",
		"budget.safety_percent", "budget.reserve_permille", "allocator_round_bytes"}
	for _, path := range want {
		if named, _ := namesField(err, path, specRange{}); !named {
			t.Errorf("error %v does not name %s", err, path)
		}
	}
	if n := len(FieldErrors(err)); n != len(want) {
		t.Errorf("%d errors, want %d: %v", n, len(want), err)
	}
}

// TestDecodeRefusesBadJSON: unknown keys (naming the key), fractions,
// exponents, strings, numbers beyond int64 and wrong types are refused,
// naming the field.
func TestDecodeRefusesBadJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ json, field string }{
		{`{"rowz": 5}`, "rowz"},
		{`{"model": {"vocab": 5}}`, "model.vocab"},
		{`{"model": {"rows": 5}}`, "model.rows"},
		{`{"request": {"outputs": {"logprob": true}}}`, "request.outputs.logprob"},
		{`{"request": {"Rows": 5}}`, "request.Rows"},
		{`{"changes": {"gdn": true}}`, "changes.gdn"},
		{`{"text_config": {}}`, "text_config"},
		{`{"rows": 5}`, "rows"},
		{`{"request": {"rows": 1.5}}`, "request.rows"},
		{`{"request": {"rows": 64902.0}}`, "request.rows"},
		{`{"request": {"rows": 6.4902e4}}`, "request.rows"},
		{`{"request": {"rows": 1e3}}`, "request.rows"},
		{`{"request": {"rows": 1e30}}`, "request.rows"},
		{`{"request": {"rows": -1e30}}`, "request.rows"},
		{`{"request": {"rows": 1e400}}`, "request.rows"},
		{`{"request": {"rows": "64902"}}`, "request.rows"},
		{`{"request": {"rows": "64,902"}}`, "request.rows"},
		{`{"request": {"rows": 9223372036854775808}}`, "request.rows"},
		{`{"request": {"rows": -9223372036854775809}}`, "request.rows"},
		{`{"request": {"rows": 99999999999999999999999}}`, "request.rows"},
		{`{"request": {"rows": true}}`, "request.rows"},
		{`{"request": {"rows": null}}`, "request.rows"},
		{`{"request": {"rows": [5]}}`, "request.rows"},
		{`{"request": {"rows": {"value": 5}}}`, "request.rows"},
		{`{"request": {"grad": 1}}`, "request.grad"},
		{`{"request": {"grad": "true"}}`, "request.grad"},
		{`{"request": {"grad": null}}`, "request.grad"},
		{`{"request": {"outputs": {"topk": 2.5}}}`, "request.outputs.topk"},
		{`{"budget": {"capacity_bytes": 1.5e11}}`, "budget.capacity_bytes"},
		{`{"budget": {"retained_per_row_bytes": "auto"}}`, "budget.retained_per_row_bytes"},
		{`{"allocator_round_bytes": 512.5}`, "allocator_round_bytes"},
		{`{"changes": {"gdn_early_release": "yes"}}`, "changes.gdn_early_release"},
		{`{"model": 5}`, "model"},
		{`{"model": null}`, "model"},
		{`{"model": [1]}`, "model"},
		{`{"request": {"outputs": true}}`, "request.outputs"},
	} {
		got, err := DecodeConfig([]byte(tc.json))
		if err == nil {
			t.Errorf("%s: accepted", tc.json)
			continue
		}
		if named, _ := namesField(err, tc.field, specRange{}); !named {
			t.Errorf("%s: error %q does not name %s", tc.json, err, tc.field)
		}
		if marshalConfigString(got) != marshalConfigString(Default()) {
			t.Errorf("%s: the returned config is not the default", tc.json)
		}
	}
	// Not an object at all, or not JSON.
	for _, body := range []string{``, ` `, `[]`, `5`, `"x"`, `null`, `{`, `{"request": }`, `{} {}`, `{}x`, "\x00"} {
		if _, err := DecodeConfig([]byte(body)); err == nil {
			t.Errorf("%q: accepted", body)
		} else if len(FieldErrors(err)) == 0 {
			t.Errorf("%q: error %v carries no field error", body, err)
		}
	}
}

// TestDecodeDefaultsAndRoundTrip: omitted fields take their defaults,
// optional fields left out keep following the fields they derive from,
// null returns an optional field to its default, and MarshalConfig reads
// back to the same config.
func TestDecodeDefaultsAndRoundTrip(t *testing.T) {
	t.Parallel()
	c, err := DecodeConfig([]byte(` {} `))
	if err != nil || marshalConfigString(c) != marshalConfigString(Default()) {
		t.Fatalf("{}: %v, %s", err, MarshalConfig(c))
	}
	c, err = DecodeConfig([]byte(`{"request": {"rows": 1000, "target_rows": null}, "changes": {"fc2_known_storage": false}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Request.Rows = 1000
	want.Changes.FC2KnownStorage = false
	if marshalConfigString(c) != marshalConfigString(want) {
		t.Errorf("partial config decoded as\n%s\nwant\n%s", MarshalConfig(c), MarshalConfig(want))
	}
	r, err := c.Resolve()
	if err != nil || r.P != 1000 || r.T != 1000 || r.I != 512 || r.O != 2048 || r.RetainedPerRow != 48*2048*2 {
		t.Errorf("resolved P %d T %d I %d O %d retained/row %d (%v)", r.P, r.T, r.I, r.O, r.RetainedPerRow, err)
	}
	// Round trips, including explicit optional fields and every toggle.
	rng := newRand()
	for i := 0; i < 300; i++ {
		c := randomConfig(rng)
		data := MarshalConfig(c)
		back, err := DecodeConfig(data)
		if err != nil {
			t.Fatalf("%s: %v", data, err)
		}
		if marshalConfigString(back) != string(data) {
			t.Fatalf("round trip changed\n%s\ninto\n%s", data, MarshalConfig(back))
		}
		// The same request fed as JSON and as a Go value prices the same.
		a, errA := Estimate(c)
		b, errB := Estimate(back)
		if fmt.Sprint(a, errA) != fmt.Sprint(b, errB) {
			t.Fatalf("%s: Estimate differs after a round trip", data)
		}
	}
}

// TestOverflowIsAnError: a product beyond int64 is an *Error naming the
// fields whose product it is, never a wrapped number or a panic.
func TestOverflowIsAnError(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		set  func(*Config)
		must []string // paths the error must name
	}{
		{"rows 2^31-1 x retained_per_row_bytes 2^50", func(c *Config) {
			c.Request.Rows = 1<<31 - 1
			c.Budget.RetainedPerRowBytes = Int64(1 << 50)
		}, []string{"request.rows", "budget.retained_per_row_bytes"}},
		{"retained_per_row_bytes 2^50 at the default rows", func(c *Config) {
			c.Budget.RetainedPerRowBytes = Int64(1 << 50)
		}, []string{"request.rows", "budget.retained_per_row_bytes"}},
		{"fc2 at every maximum", func(c *Config) {
			c.Request.Rows = 1<<31 - 1
			c.Model.NumExpertsPerTok, c.FC2.ExpertParallel = 1024, 2
			c.FC2.OutputWidth, c.FC2.DtypeBytes = Int64(1<<20), 8
		}, []string{"model.num_experts_per_tok", "fc2.output_width"}},
		{"gdn at every maximum", func(c *Config) {
			c.Request.Rows = 1<<31 - 1
			c.Model.LinearNumKeyHeads, c.Model.LinearKeyHeadDim = 1<<20, 1<<20
		}, []string{"request.rows"}},
		{"a sum: checkpoints just fit, logprobs tip them over", func(c *Config) {
			c.Request.Rows, c.Request.SequenceRows = 1<<31-1, 1<<31-1
			c.Budget.RetainedPerRowBytes = Int64(math.MaxInt64 / (1<<31 - 1))
			c.AllocatorRoundBytes = 1
		}, []string{"request.rows"}},
		{"the safety multiplier", func(c *Config) {
			c.Request.Rows, c.Request.SequenceRows = 1<<31-1, 1<<31-1
			c.Request.Outputs = Outputs{}
			c.Budget.RetainedPerRowBytes = Int64(math.MaxInt64/(1<<31-1) - 1<<20)
			c.Budget.SafetyPercent = 1000
			c.AllocatorRoundBytes = 1
		}, []string{"budget.safety_percent"}},
	} {
		c := Default()
		tc.set(&c)
		if _, err := c.Resolve(); err != nil {
			t.Fatalf("%s: the config itself is invalid: %v", tc.name, err)
		}
		var res Result
		var err error
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Errorf("%s: panic: %v", tc.name, p)
				}
			}()
			res, err = Estimate(c)
		}()
		var e *Error
		if !errors.As(err, &e) {
			t.Errorf("%s: got %v (%+v), want an *Error", tc.name, err, res.Baseline)
			continue
		}
		for _, path := range tc.must {
			if !strings.Contains(e.Field, path) {
				t.Errorf("%s: error field %q does not name %s", tc.name, e.Field, path)
			}
		}
		if !refEstimate(c).overflow {
			t.Errorf("%s: the reference finds no overflow", tc.name)
		}
	}
}

// TestParseInt: integers as a person types them.
func TestParseInt(t *testing.T) {
	t.Parallel()
	for text, want := range map[string]int64{
		"64902": 64902, "64,902": 64902, "64_902": 64902, " 7 ": 7, "+5": 5, "-3": -3, "0": 0,
		"9,223,372,036,854,775,807": math.MaxInt64, "-9223372036854775808": math.MinInt64,
	} {
		if got, err := ParseInt(text); err != nil || got != want {
			t.Errorf("ParseInt(%q) = %d, %v; want %d", text, got, err, want)
		}
	}
	for _, text := range []string{"", " ", "1.5", "1e3", "1E3", "NaN", "Inf", "-Infinity", "1,,2", ",1", "1,", "_1",
		"9223372036854775808", "-9223372036854775809", "\u0663", "12a", "0x10", "--1", "+", "-", "1 2"} {
		if v, err := ParseInt(text); err == nil {
			t.Errorf("ParseInt(%q) = %d, want an error", text, v)
		}
	}
}

// TestRegistryIsReadOnly: what Fields and FieldByKey return are copies.
// Narrowing a range or a OneOf through them changes neither what the next
// call returns nor what Estimate accepts.
func TestRegistryIsReadOnly(t *testing.T) {
	t.Parallel()
	for _, f := range Fields() {
		f.Min, f.Max = 2, 3
		if f.OneOf != nil {
			f.OneOf[0] = 3
		}
	}
	rows, _ := FieldByKey("rows")
	rows.Max = 3
	dtype, _ := FieldByKey("fc2.dtype_bytes")
	dtype.OneOf[0] = 3
	if f, _ := FieldByKey("rows"); f.Min != 1 || f.Max != maxRows {
		t.Errorf("rows after a caller changed its copy: %d..%d, want 1..%d", f.Min, f.Max, maxRows)
	}
	if f, _ := FieldByKey("dtype_bytes"); !slices.Equal(f.OneOf, []int64{1, 2, 4, 8}) {
		t.Errorf("dtype_bytes after a caller changed its copy: one of %v", f.OneOf)
	}
	for _, f := range Fields() {
		if f.Key == "rows" && f.Max != maxRows {
			t.Errorf("Fields(): rows.Max = %d after a caller changed its copy", f.Max)
		}
	}
	c := Default()
	c.Request.Rows, c.Request.SequenceRows = 10, 10
	c.FC2.DtypeBytes = 1
	if _, err := Estimate(c); err != nil {
		t.Errorf("Estimate(rows=10, dtype_bytes=1) after callers changed their copies: %v", err)
	}
}

// TestErrorConvention: errors.As finds an *Error inside the ErrorList
// Resolve and DecodeConfig return, and a bad config resolves to the zero
// value, not a half-filled one.
func TestErrorConvention(t *testing.T) {
	t.Parallel()
	c := Default()
	c.Request.Rows = 0
	c.Model.VocabSize = -1
	r, err := c.Resolve()
	var e *Error
	if !errors.As(err, &e) || e.Field != "model.vocab_size" {
		t.Fatalf("errors.As(Resolve's error, *Error) = %v, field %v; want the first bad field, model.vocab_size", e != nil, e)
	}
	if r != (Resolved{}) {
		t.Errorf("Resolve of a bad config returned %+v, want the zero Resolved", r)
	}
	rv, err := c.ResolveRevisions()
	if err == nil || rv.Rev[0] != (Resolved{}) || rv.Rev[1] != (Resolved{}) || rv.Own {
		t.Errorf("ResolveRevisions of a bad config: %+v, %v; want the zero Revisions and an error", rv, err)
	}
	_, err = DecodeConfig([]byte(`{"request": {"rows": 0}}`))
	if !errors.As(err, &e) || e.Field != "request.rows" {
		t.Errorf("errors.As(DecodeConfig's error, *Error): %v; want request.rows", err)
	}
}
