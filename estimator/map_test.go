package estimator

import (
	"encoding/json"
	"fmt"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// explicit is c with every default that depends on other fields written
// out, so that moving one field moves nothing else (a sweep's rule).
func explicit(t testing.TB, c Config) Config {
	t.Helper()
	r, err := c.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	c.Request.ProjectedRows, c.Request.TargetRows = Int64(r.P), Int64(r.T)
	c.FC2.InputWidth, c.FC2.OutputWidth = Int64(r.I), Int64(r.O)
	c.Budget.RetainedPerRowBytes = Int64(r.RetainedPerRow)
	return c
}

// setAxis sets an axis of an explicit config as a sweep does: rows
// carries projected_rows and target_rows in proportion.
func setAxis(c *Config, axis string, v int64) {
	if axis == "rows" {
		n, p, tr := c.Request.Rows, *c.Request.ProjectedRows, *c.Request.TargetRows
		c.Request.ProjectedRows = Int64(ceilDiv(v*p, n))
		c.Request.TargetRows = Int64(ceilDiv(v*tr, n))
	}
	f, _ := FieldByKey(axis)
	f.SetInt(c, v)
}

// sweepBesideEstimate samples every axis of an explicit config c at per
// points around its value and hands each to check: the sweep's point at
// x, and Estimate of cx, which is c with the axis set to x.
func sweepBesideEstimate(t testing.TB, rng *rand.Rand, c Config, per int, check func(axis string, x int64, pt Point, cx Config, res Result, err error)) {
	t.Helper()
	for _, axis := range Axes() {
		s, err := NewSweeper(c, axis)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := FieldByKey(axis)
		v, _ := f.Int(&c)
		for j := 0; j < per; j++ {
			x := max(f.Min, min(f.Max, v/4+between(rng, 0, v*2+3)))
			pt := s.Point(x)
			cx := c
			setAxis(&cx, axis, x)
			res, err := Estimate(cx)
			check(axis, x, pt, cx, res, err)
		}
	}
}

// decisionsAt is each revision's decision at (x, y), by Estimate of the
// config with both set; Invalid where Estimate fails.
func decisionsAt(t testing.TB, c Config, xa string, x int64, ya string, y int64) [2]Decision {
	e := explicit(t, c)
	if f, _ := FieldByKey(xa); x < f.Min || x > f.Max {
		return [2]Decision{Invalid, Invalid}
	}
	setAxis(&e, xa, x)
	setAxis(&e, ya, y)
	res, err := Estimate(e)
	if err != nil {
		return [2]Decision{Invalid, Invalid}
	}
	return [2]Decision{res.Baseline.Decision, res.Candidate.Decision}
}

// specColumns is docs/model.md §10's x_i = x_from + floor(i (x_to - x_from) /
// (c - 1)), repeats dropped, in big integers.
func specColumns(from, to int64, c int) []int64 {
	var out []int64
	span := new(big.Int).Sub(big.NewInt(to), big.NewInt(from))
	for i := 0; i < c; i++ {
		q := new(big.Int).Mul(span, big.NewInt(int64(i)))
		q.Quo(q, big.NewInt(int64(c-1)))
		x := from + q.Int64()
		if len(out) == 0 || out[len(out)-1] != x {
			out = append(out, x)
		}
	}
	return out
}

// randomMapRange picks a range of axis around the config's value, now and
// then reaching outside the field's own range.
func randomMapRange(rng *rand.Rand, c Config, axis string) MapAxis {
	r, _ := c.Resolve()
	f, _ := FieldByKey(axis)
	cur := *r.AxisField(axis)
	hi := min(f.Max, max(cur, 1)*between(rng, 1, 8)+between(rng, 0, 64))
	lo := between(rng, max(f.Min-1, 0), max(f.Min, cur))
	switch rng.IntN(6) {
	case 0:
		hi = lo + between(rng, 0, 40) // fewer integers than columns
	case 1:
		hi = f.Max + between(rng, 0, 3)
	}
	return MapAxis{Axis: axis, From: lo, To: hi}
}

// TestMapMatchesSweeps is the reference comparison: on random configs,
// axes and ranges, the columns are docs/model.md §10's, each column is Sweep
// along y of the config at its x (when that config is valid), and every
// start and flip agrees with Estimate at the points it names.
func TestMapMatchesSweeps(t *testing.T) {
	t.Parallel()
	rng := newRand()
	n := 200
	if testing.Short() {
		n = 40
	}
	compared, flipsSeen, allInvalid := 0, 0, 0
	for i := 0; i < n; i++ {
		c := randomConfig(rng)
		xa := axes[rng.IntN(len(axes))]
		ya := axes[rng.IntN(len(axes))]
		for ya == xa {
			ya = axes[rng.IntN(len(axes))]
		}
		x, y := randomMapRange(rng, c, xa), randomMapRange(rng, c, ya)
		cols := int(oneOf(rng, 2, 3, 7, 16, between(rng, 2, 40)))
		name := fmt.Sprintf("%d_%s_%s", i, xa, ya)
		t.Run(name, func(t *testing.T) {
			res, err := Map(c, x, y, cols)
			if err != nil {
				if fe := FieldErrors(err); len(fe) == 1 && fe[0].Field == "map" {
					checkAllInvalid(t, c, x, y, cols)
					allInvalid++
					return
				}
				t.Fatalf("config %s, x %+v, y %+v: %v", MarshalConfig(c), x, y, err)
			}
			want := specColumns(x.From, x.To, cols)
			if len(res.Columns) != len(want) {
				t.Fatalf("%d columns, want %d", len(res.Columns), len(want))
			}
			for j, col := range res.Columns {
				if col.X != want[j] {
					t.Fatalf("column %d at x %d, want %d", j, col.X, want[j])
				}
				compared += checkColumn(t, c, x, y, col)
				flipsSeen += len(col.Baseline.Flips) + len(col.Candidate.Flips)
			}
		})
	}
	t.Logf("%d columns compared with a sweep, %d flips checked, %d maps all invalid", compared, flipsSeen, allInvalid)
	if compared < n || flipsSeen < n {
		t.Fatalf("only %d columns compared with a sweep, %d flips: the random maps test too little", compared, flipsSeen)
	}
}

// checkColumn checks one column against Estimate at its start and flips,
// and against Sweep when the config at its x is valid; 1 if it compared
// with a sweep.
func checkColumn(t *testing.T, c Config, x, y MapAxis, col MapColumn) int {
	t.Helper()
	start := decisionsAt(t, c, x.Axis, col.X, y.Axis, y.From)
	for rev := 0; rev < 2; rev++ {
		r := col.Rev(Revision(rev))
		if r.Start != start[rev] {
			t.Fatalf("x %d rev %d: start %v, Estimate says %v", col.X, rev, r.Start, start[rev])
		}
		if r.Flips == nil {
			t.Fatalf("x %d rev %d: flips nil, want a list", col.X, rev)
		}
		prev := r.Start
		for _, f := range r.Flips {
			a := decisionsAt(t, c, x.Axis, col.X, y.Axis, f.Last)[rev]
			b := decisionsAt(t, c, x.Axis, col.X, y.Axis, f.First)[rev]
			if f.FromDecision != prev || a != f.FromDecision || b != f.ToDecision || f.First != f.Last+1 {
				t.Fatalf("x %d rev %d: flip %+v after %v; Estimate says %v at %d, %v at %d", col.X, rev, f, prev, a, f.Last, b, f.First)
			}
			prev = f.ToDecision
		}
	}
	if f, _ := FieldByKey(x.Axis); col.X < f.Min || col.X > f.Max {
		return 0
	}
	at := explicit(t, c)
	setAxis(&at, x.Axis, col.X)
	if _, err := at.Resolve(); err != nil {
		return 0 // x alone breaks a limit that y may lift: checked above
	}
	sw, err := Sweep(at, y.Axis, y.From, y.To, DefaultPoints)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(col.Baseline.Flips, sw.Baseline.Flips) || !reflect.DeepEqual(col.Candidate.Flips, sw.Candidate.Flips) {
		t.Fatalf("x %d: map column %+v\nsweep %+v", col.X, col, sw)
	}
	return 1
}

// checkAllInvalid: a map refused as all invalid is invalid in each
// column at both ends of y and in the middle.
func checkAllInvalid(t *testing.T, c Config, x, y MapAxis, cols int) {
	t.Helper()
	for _, xv := range specColumns(x.From, x.To, cols) {
		for _, yv := range []int64{y.From, y.From + (y.To-y.From)/2, y.To} {
			if d := decisionsAt(t, c, x.Axis, xv, y.Axis, yv); d[0] != Invalid {
				t.Fatalf("refused as all invalid, but (%d, %d) is %v; x %+v y %+v, %d columns", xv, yv, d, x, y, cols)
			}
		}
	}
}

// pressure is the README's example: 63.75 GiB in use, 200,000 rows.
func pressure() Config {
	c := Default()
	c.Request.Rows = 200_000
	c.Budget.InUseBytes = 68_451_041_280
	return c
}

// TestMapPressure: the README's map, its shape and one column's figures
// checked against the sweep the README quotes.
func TestMapPressure(t *testing.T) {
	t.Parallel()
	x := MapAxis{Axis: "rows", From: 1, To: 600_000}
	y := MapAxis{Axis: "in_use_bytes", From: 0, To: 120_000_000_000}
	res, err := Map(pressure(), x, y, DefaultColumns)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Columns) != DefaultColumns || res.X != x || res.Y != y {
		t.Fatalf("x %+v y %+v, %d columns", res.X, res.Y, len(res.Columns))
	}
	// The column at rows = 1 + floor(64 x 599,999 / 127) = 302,362.
	col := res.Columns[64]
	if col.X != 302_362 {
		t.Fatalf("column 64 at %d", col.X)
	}
	if col.Baseline.Start != Admit || col.Candidate.Start != Admit {
		t.Fatalf("column 64 starts %v/%v, want admit", col.Baseline.Start, col.Candidate.Start)
	}
	// Along in_use_bytes the candidate leaves admit before the baseline.
	bf, cf := col.Baseline.Flips, col.Candidate.Flips
	if len(bf) == 0 || len(cf) == 0 || bf[0].ToDecision != Split || cf[0].ToDecision != Split || cf[0].Last >= bf[0].Last {
		t.Fatalf("flips baseline %+v candidate %+v", bf, cf)
	}
}

// TestMapBadInput: every way a map's request can be wrong, and the field
// each error names.
func TestMapBadInput(t *testing.T) {
	t.Parallel()
	good := MapAxis{Axis: "rows", From: 1, To: 100_000}
	goodY := MapAxis{Axis: "vocab_size", From: 1, To: 300_000}
	bad := Default()
	bad.Request.Rows = 0
	for _, tc := range []struct {
		name    string
		c       Config
		x, y    MapAxis
		columns int
		field   string
		msg     string
	}{
		{"same axis", Default(), good, good, 128, "y.axis", "must differ from x.axis"},
		{"unknown x axis", Default(), MapAxis{Axis: "layers", From: 1, To: 2}, goodY, 128, "x.axis", "must be one of rows"},
		{"unknown y axis", Default(), good, MapAxis{Axis: "", From: 1, To: 2}, 128, "y.axis", "must be one of rows"},
		{"x empty range", Default(), MapAxis{Axis: "rows", From: 10, To: 9}, goodY, 128, "x.to", "must be at least from (10)"},
		{"y empty range", Default(), good, MapAxis{Axis: "vocab_size", From: 5, To: 4}, 128, "y.to", "must be at least from (5)"},
		{"x negative", Default(), MapAxis{Axis: "rows", From: -1, To: 9}, goodY, 128, "x.from", "must be in 0.."},
		{"y beyond", Default(), good, MapAxis{Axis: "vocab_size", From: 1, To: 1<<62 + 1}, 128, "y.to", "must be in 0.."},
		{"one column", Default(), good, goodY, 1, "columns", "must be in 2..1,024, got 1"},
		{"too many columns", Default(), good, goodY, 1025, "columns", "must be in 2..1,024, got 1,025"},
		{"bad config", bad, good, goodY, 128, "request.rows", "must be an integer in 1..2,147,483,647"},
		{"every point invalid", Default(), MapAxis{Axis: "rows", From: 0, To: 0}, goodY, 128, "map", "every point is invalid, as at rows = 0, vocab_size = 1: request.rows: must be"},
		{"every point invalid by y", Default(), good, MapAxis{Axis: "vocab_size", From: 1 << 27, To: 1 << 28}, 16, "map", "model.vocab_size: must be an integer in 1..67,108,864"},
		{"in use above every capacity", Default(), MapAxis{Axis: "in_use_bytes", From: 1 << 40, To: 1 << 41}, MapAxis{Axis: "capacity_bytes", From: 1, To: 1 << 30}, 8, "map", "budget.in_use_bytes: must be in 0..capacity_bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Map(tc.c, tc.x, tc.y, tc.columns)
			if err == nil {
				t.Fatal("no error")
			}
			for _, e := range FieldErrors(err) {
				if e.Field == tc.field && strings.Contains(e.Message, tc.msg) {
					return
				}
			}
			t.Fatalf("got %v, want %s: ...%s...", err, tc.field, tc.msg)
		})
	}
}

// TestMapInvalidThenValid: x alone may break a limit that y lifts (memory
// in use above the capacity until the capacity grows): such a column
// starts invalid and flips to a decision, with the message.
func TestMapInvalidThenValid(t *testing.T) {
	t.Parallel()
	x := MapAxis{Axis: "in_use_bytes", From: 100 << 30, To: 100 << 30}
	y := MapAxis{Axis: "capacity_bytes", From: 80 << 30, To: 200 << 30}
	res, err := Map(Default(), x, y, 2)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Columns) != 1 {
		t.Fatalf("%d columns for a one-value range, want 1", len(res.Columns))
	}
	for rev := 0; rev < 2; rev++ {
		r := res.Columns[0].Rev(Revision(rev))
		if r.Start != Invalid || len(r.Flips) == 0 {
			t.Fatalf("rev %d: %+v", rev, r)
		}
		f := r.Flips[0]
		if f.FromDecision != Invalid || f.Last != 100<<30-1 || f.First != 100<<30 || !strings.Contains(f.Message, "budget.in_use_bytes") {
			t.Fatalf("rev %d: first flip %+v", rev, f)
		}
	}
}

// TestMapJSONShape: the keys of docs/model.md §10, "invalid" for a start where
// the config is invalid, and [] (not null) for a column without flips.
func TestMapJSONShape(t *testing.T) {
	t.Parallel()
	x := MapAxis{Axis: "rows", From: 0, To: 100}
	y := MapAxis{Axis: "vocab_size", From: 1, To: 2}
	res, err := Map(Default(), x, y, 3)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"x":{"axis":"rows","from":0,"to":100},"y":{"axis":"vocab_size","from":1,"to":2},"columns":[` +
		`{"x":0,"baseline":{"start":"invalid","flips":[]},"candidate":{"start":"invalid","flips":[]}},` +
		`{"x":50,"baseline":{"start":"admit","flips":[]},"candidate":{"start":"admit","flips":[]}},` +
		`{"x":100,"baseline":{"start":"admit","flips":[]},"candidate":{"start":"admit","flips":[]}}]}`
	if string(data) != want {
		t.Fatalf("got  %s\nwant %s", data, want)
	}
}

// TestMapAcrossBudgetColumns: with the budget across, a column reuses the
// previous column's results where its ladder takes the same path; every
// column still equals a sweep along y at its x, on a default config and
// on random ones.
func TestMapAcrossBudgetColumns(t *testing.T) {
	t.Parallel()
	rng := newRand()
	cfgs := []Config{pressure(), Default()}
	for i := 0; i < 10; i++ {
		cfgs = append(cfgs, randomConfig(rng))
	}
	compared := 0
	for i, c := range cfgs {
		r, _ := c.Resolve()
		x := MapAxis{Axis: []string{"in_use_bytes", "capacity_bytes"}[i%2], From: 0, To: 2 * r.Capacity}
		y := MapAxis{Axis: []string{"rows", "vocab_size", "sequence_rows"}[i%3], From: 1, To: 4 * *r.AxisField([]string{"rows", "vocab_size", "sequence_rows"}[i%3])}
		res, err := Map(c, x, y, 24)
		if err != nil {
			t.Fatalf("config %s: %v", MarshalConfig(c), err)
		}
		for _, col := range res.Columns {
			compared += checkColumn(t, c, x, y, col)
		}
	}
	if compared < 100 {
		t.Fatalf("only %d columns compared with a sweep", compared)
	}
}
