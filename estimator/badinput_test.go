package estimator

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// badObserved is the bad-input table of the observed points (docs/model.md §12):
// the JSON of the "observed" key and the exact message. Where the points
// parse, a Config holding them gives the same message from Estimate.
var badObserved = []struct {
	name, json, msg string
}{
	{"rows zero", `[{"rows": 0, "peak_bytes": 5}]`, "observed[0].rows: must be an integer in 1..2,147,483,647, got 0"},
	{"rows negative", `[{"rows": 1, "peak_bytes": 5}, {"rows": -3, "peak_bytes": 5}]`, "observed[1].rows: must be an integer in 1..2,147,483,647, got -3"},
	{"rows too many", `[{"rows": 2147483648, "peak_bytes": 5}]`, "observed[0].rows: must be an integer in 1..2,147,483,647, got 2,147,483,648"},
	{"rows fraction", `[{"rows": 1.5, "peak_bytes": 5}]`, "observed[0].rows: must be a whole number; must be an integer in 1..2,147,483,647, got 1.5"},
	{"rows string", `[{"rows": "64,902", "peak_bytes": 5}]`, `observed[0].rows: must be an integer in 1..2,147,483,647, got "64,902"`},
	{"rows missing", `[{"peak_bytes": 5}]`, "observed[0].rows: is required"},
	{"peak zero", `[{"rows": 1, "peak_bytes": 0}]`, "observed[0].peak_bytes: must be an integer in 1..1,125,899,906,842,624, got 0"},
	{"peak above 2^50", `[{"rows": 1, "peak_bytes": 1125899906842625}]`, "observed[0].peak_bytes: must be an integer in 1..1,125,899,906,842,624, got 1,125,899,906,842,625"},
	{"peak beyond int64", `[{"rows": 1, "peak_bytes": 1e30}]`, "observed[0].peak_bytes: is beyond the range of a 64-bit integer; must be an integer in 1..1,125,899,906,842,624, got 1e30"},
	{"peak exponent", `[{"rows": 1, "peak_bytes": 8.8e10}]`, "observed[0].peak_bytes: must be written as a whole number, without a fraction or exponent; must be an integer in 1..1,125,899,906,842,624, got 8.8e10"},
	{"peak missing", `[{"rows": 3}]`, "observed[0].peak_bytes: is required"},
	{"label too long", `[{"rows": 1, "peak_bytes": 1, "label": "` + strings.Repeat("x", 65) + `"}]`, "observed[0].label: must be at most 64 bytes, got 65"},
	{"label multibyte too long", `[{"rows": 1, "peak_bytes": 1, "label": "` + strings.Repeat("é", 33) + `"}]`, "observed[0].label: must be at most 64 bytes, got 66"},
	{"label number", `[{"rows": 1, "peak_bytes": 1, "label": 5}]`, "observed[0].label: must be a JSON string, got 5"},
	{"label null", `[{"rows": 1, "peak_bytes": 1, "label": null}]`, "observed[0].label: must be a JSON string, got null"},
	{"unknown key", `[{"rows": 1, "peak_bytes": 1, "gib": 2}]`, "observed[0].gib: is not a field of an observed point; allowed here: label, peak_bytes, rows"},
	{"empty key", `[{"rows": 1, "peak_bytes": 1, "": 2}]`, `observed[0] key "": is not a field of an observed point; allowed here: label, peak_bytes, rows`},
	{"point not an object", `[{"rows": 1, "peak_bytes": 1}, [1, 2]]`, "observed[1]: must be a JSON object"},
	{"not an array", `{"rows": 1, "peak_bytes": 1}`, `observed: must be a JSON array of points {"rows": n, "peak_bytes": B, "label": "..."}, got {"rows": 1, "peak_bytes": 1}`},
	{"65 points", "[" + strings.Repeat(`{"rows": 1, "peak_bytes": 1},`, 64) + `{"rows": 1, "peak_bytes": 1}]`, "observed: must hold at most 64 points, got 65"},
	{"two bad points", `[{"rows": 0, "peak_bytes": 1}, {"rows": 1, "peak_bytes": -1}]`, "observed[0].rows: must be an integer in 1..2,147,483,647, got 0; observed[1].peak_bytes: must be an integer in 1..1,125,899,906,842,624, got -1"},
}

func TestBadObserved(t *testing.T) {
	t.Parallel()
	for _, tt := range badObserved {
		t.Run(tt.name, func(t *testing.T) {
			body := `{"observed": ` + tt.json + `}`
			got, err := DecodeConfig([]byte(body))
			if err == nil || err.Error() != tt.msg {
				t.Errorf("JSON: %v\nwant  %q", err, tt.msg)
			}
			if err != nil && marshalConfigString(got) != marshalConfigString(Default()) {
				t.Errorf("JSON decoder changed the config on error")
			}
			// The same points built in Go, where they parse.
			var pts []ObservedPoint
			if json.Unmarshal([]byte(tt.json), &pts) != nil || strings.Contains(tt.json, "null") || strings.Contains(tt.json, "gib") || strings.Contains(tt.json, `"": 2`) || strings.HasSuffix(tt.name, "missing") {
				return
			}
			c := Default()
			c.Observed = pts
			if _, err := Estimate(c); err == nil || err.Error() != tt.msg {
				t.Errorf("Estimate: %v\nwant      %q", err, tt.msg)
			}
		})
	}
}

// TestObservedAccepted: the ends of every range, a label of 64 bytes,
// null and [] as no points.
func TestObservedAccepted(t *testing.T) {
	t.Parallel()
	for name, body := range map[string]string{
		"ends":  `[{"rows": 1, "peak_bytes": 1}, {"rows": 2147483647, "peak_bytes": 1125899906842624, "label": "` + strings.Repeat("x", 64) + `"}]`,
		"null":  `null`,
		"empty": `[]`,
	} {
		t.Run(name, func(t *testing.T) {
			c := mustDecode(t, []byte(`{"observed": `+body+`}`))
			res, err := Estimate(c)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Observed) != len(c.Observed) || (res.Fit != nil) != (len(c.Observed) > 0) {
				t.Errorf("%d points gave %d results, fit %v", len(c.Observed), len(res.Observed), res.Fit)
			}
		})
	}
}

// setExtreme puts f at v in the default config, keeping cross-field limits
// satisfiable (in_use at most capacity, projected and target rows following
// rows).
func setExtreme(f *Field, v int64) Config {
	c := Default()
	f.SetInt(&c, v)
	return c
}

// TestFieldExtremes sets every integer field to its minimum and maximum:
// never a panic; either a result or an error naming the fields; one past
// either end is refused naming the field.
func TestFieldExtremes(t *testing.T) {
	t.Parallel()
	for _, f := range Fields() {
		if f.Kind != IntField {
			continue
		}
		lo, hi := f.Min, f.Max
		for _, v := range []int64{lo, hi} {
			if f.OneOf != nil && v == hi {
				v = f.OneOf[len(f.OneOf)-1]
			}
			c := setExtreme(f, v)
			_, err := Estimate(c)
			if err != nil {
				var e *Error
				var list ErrorList
				if !errors.As(err, &e) && !errors.As(err, &list) {
					t.Errorf("%s=%d: error %T %v names no field", f.Path, v, err, err)
				}
				if !strings.Contains(err.Error(), ".") && !strings.Contains(err.Error(), "allocator_round_bytes") {
					t.Errorf("%s=%d: %v", f.Path, v, err)
				}
			}
		}
		for _, v := range []int64{lo - 1, hi + 1} {
			_, err := Estimate(setExtreme(f, v))
			if err == nil || !strings.HasPrefix(err.Error(), f.Path+": ") {
				t.Errorf("%s=%d: error %v, want one naming %s", f.Path, v, err, f.Path)
			}
		}
	}
}

// TestPairsOfMaxima sets every pair of integer fields to their maxima: an
// overflow is an *Error naming the fields of the product, never a wrapped
// number or a panic; a result that comes back has non-negative bytes.
func TestPairsOfMaxima(t *testing.T) {
	t.Parallel()
	var ints []*Field
	for _, f := range Fields() {
		if f.Kind == IntField && f.OneOf == nil {
			ints = append(ints, f)
		}
	}
	overflows := 0
	for i, a := range ints {
		for _, b := range ints[i+1:] {
			c := Default()
			a.SetInt(&c, a.Max)
			b.SetInt(&c, b.Max)
			c.FC2.DtypeBytes = 8
			res, err := Estimate(c)
			if err != nil {
				var e *Error
				if errors.As(err, &e) && strings.Contains(e.Message, "overflows") {
					overflows++
					if !strings.Contains(e.Field, ".") {
						t.Errorf("%s, %s: overflow names no field: %v", a.Key, b.Key, err)
					}
				}
				continue
			}
			for _, o := range []Outcome{res.Baseline, res.Candidate} {
				if o.RequiredBytes < 0 || o.LowerBoundBytes < 0 || o.RetainedBytes < 0 || o.EphemeralBytes < 0 {
					t.Errorf("%s, %s: negative bytes %+v", a.Key, b.Key, o)
				}
			}
		}
	}
	if overflows == 0 {
		t.Error("no pair of maxima overflowed; the test no longer exercises overflow")
	}
	t.Logf("%d pairs of maxima overflow, each reported as an error", overflows)
}
