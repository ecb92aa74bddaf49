package estimator

import (
	"math"
	"reflect"
	"testing"
)

func TestMapSegmentsAndDifferences(t *testing.T) {
	t.Parallel()
	col := MapColumn{X: 7,
		Baseline: MapRevision{Start: Admit, Flips: []Flip{
			{FromDecision: Admit, ToDecision: Split, Last: 50, First: 51},
			{FromDecision: Split, ToDecision: Refuse, Last: 80, First: 81}}},
		Candidate: MapRevision{Start: Admit, Flips: []Flip{
			{FromDecision: Admit, ToDecision: Split, Last: 30, First: 31},
			{FromDecision: Split, ToDecision: Refuse, Last: 70, First: 71}}},
	}
	segs := col.Baseline.AppendSegments(nil, 0, 100)
	wantSegs := []Segment{{0, 50, Admit}, {51, 80, Split}, {81, 100, Refuse}}
	if !reflect.DeepEqual(segs, wantSegs) {
		t.Fatalf("segments %+v, want %+v", segs, wantSegs)
	}
	diffs := col.AppendDifferences(nil, 0, 100)
	wantDiffs := []Difference{{31, 50, Admit, Split}, {71, 80, Split, Refuse}}
	if !reflect.DeepEqual(diffs, wantDiffs) {
		t.Fatalf("differences %+v, want %+v", diffs, wantDiffs)
	}
	if n := col.differing(0, 100); n != 30 {
		t.Fatalf("differing %v, want 30", n)
	}
}

func TestMapColumnWidths(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name     string
		from, to int64
		xs       []int64
		want     []int64
	}{
		{"even", 1, 6, []int64{1, 3, 6}, []int64{2, 2, 2}},
		{"tie to the lower", 0, 4, []int64{0, 2, 4}, []int64{2, 2, 1}},
		{"one column", 5, 5, []int64{5}, []int64{1}},
		{"every integer", 10, 12, []int64{10, 11, 12}, []int64{1, 1, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := MapResult{X: MapAxis{Axis: "rows", From: tc.from, To: tc.to}}
			for _, x := range tc.xs {
				r.Columns = append(r.Columns, MapColumn{X: x})
			}
			if got := r.ColumnWidths(); !reflect.DeepEqual(got, tc.want) {
				t.Fatalf("widths %v, want %v", got, tc.want)
			}
			// ColumnAt agrees with the widths, and is -1 off the map.
			x := tc.from
			for i, w := range tc.want {
				for ; w > 0; w-- {
					if got := r.ColumnAt(x); got != i {
						t.Fatalf("ColumnAt(%d) = %d, want %d", x, got, i)
					}
					x++
				}
			}
			if r.ColumnAt(tc.from-1) != -1 || r.ColumnAt(tc.to+1) != -1 {
				t.Fatal("ColumnAt off the map is not -1")
			}
		})
	}
}

// TestMapDifferFractionBruteForce: on small random maps (every integer of
// y evaluated, so the columns are exact), DifferFraction equals the count
// over every integer point of the plane, each x taking the column nearest
// it, of the points where Estimate's two decisions differ.
func TestMapDifferFractionBruteForce(t *testing.T) {
	t.Parallel()
	rng := newRand()
	checked := 0
	for i := 0; i < 40; i++ {
		c := randomConfig(rng)
		xa, ya := "rows", []string{"in_use_bytes", "vocab_size", "chunk_rows", "capacity_bytes"}[i%4]
		r, _ := c.Resolve()
		x := MapAxis{Axis: xa, From: max(1, r.N-between(rng, 0, 20)), To: r.N + between(rng, 0, 20)}
		// Fewer integers of y than the grid's points: the columns are exact.
		cur := *r.AxisField(ya)
		y := MapAxis{Axis: ya, From: max(1, cur-between(rng, 0, 30)), To: cur + between(rng, 0, 30)}
		res, err := Map(c, x, y, int(between(rng, 2, 9)))
		if err != nil {
			continue
		}
		differ, total := 0, 0
		for xv := x.From; xv <= x.To; xv++ {
			near := res.Columns[0].X
			for _, col := range res.Columns {
				if abs64(col.X-xv) < abs64(near-xv) {
					near = col.X
				}
			}
			for yv := y.From; yv <= y.To; yv++ {
				d := decisionsAt(t, c, xa, near, ya, yv)
				if d[0] != d[1] {
					differ++
				}
				total++
			}
		}
		want := float64(differ) / float64(total)
		if got := res.DifferFraction(); math.Abs(got-want) > 1e-12 {
			t.Fatalf("config %s, x %+v, y %+v: fraction %v, want %d/%d", MarshalConfig(c), x, y, got, differ, total)
		}
		if differ > 0 {
			checked++
		}
	}
	if checked < 3 {
		t.Fatalf("only %d maps with a difference", checked)
	}
}

func TestMapSummary(t *testing.T) {
	t.Parallel()
	x := MapAxis{Axis: "vocab_size", From: 1, To: 300_000}
	y := MapAxis{Axis: "rows", From: 1, To: 1_000_000}
	res, err := Map(Default(), x, y, DefaultColumns)
	if err != nil {
		t.Fatal(err)
	}
	want := "The candidate differs on 5.0 % of this plane: at vocab_size 151,181 it splits where the baseline admits for rows 403,171..449,985, and refuses where the baseline splits for rows 670,634..673,783."
	if got := res.Summary(151_936); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	same := Default()
	same.Changes = Changes{}
	res, err = Map(same, x, y, 8)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := res.Summary(151_936), "The candidate decides as the baseline everywhere on this plane."; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	for _, tc := range []struct {
		f    float64
		want string
	}{{0.0004, "less than 0.1 %"}, {0.073, "7.3 %"}, {0.9996, "more than 99.9 %"}, {1, "100.0 %"}} {
		if got := percent(tc.f); got != tc.want {
			t.Errorf("percent(%v) = %q, want %q", tc.f, got, tc.want)
		}
	}
}

// TestMapSummaryBytes: a byte axis is written exactly, with GiB beside.
func TestMapSummaryBytes(t *testing.T) {
	t.Parallel()
	x := MapAxis{Axis: "rows", From: 1, To: 600_000}
	y := MapAxis{Axis: "in_use_bytes", From: 0, To: 120_000_000_000}
	res, err := Map(pressure(), x, y, DefaultColumns)
	if err != nil {
		t.Fatal(err)
	}
	want := "The candidate differs on 5.1 % of this plane: at rows 198,425 it splits where the baseline admits for in_use_bytes 74,262,395,732..81,749,841,798 bytes (69.162..76.135 GiB), and refuses where the baseline splits for in_use_bytes 102,120,180,359..102,804,743,200 bytes (95.107..95.744 GiB)."
	if got := res.Summary(200_000); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
