package estimator

import (
	"math/rand/v2"
	"testing"
)

// TestShapeConfigDecidesAsReplay: a line's shape applied to the config
// estimates to the decisions and children the replay gives that line.
func TestShapeConfigDecidesAsReplay(t *testing.T) {
	t.Parallel()
	p, tg := int64(50000), int64(30000)
	pressure := Default()
	pressure.Request.Rows = 200000
	pressure.Budget.InUseBytes = 68451041280
	explicit := pressure
	explicit.Request.ProjectedRows, explicit.Request.TargetRows = &p, &tg
	rng := rand.New(rand.NewPCG(14, 9))
	for _, tc := range []struct {
		name string
		cfg  Config
	}{{"default", Default()}, {"pressure", pressure}, {"explicit projected and target", explicit}} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := NewReplayer(tc.cfg)
			if err != nil {
				t.Fatal(err)
			}
			for i := 0; i < 300; i++ {
				var s Shape
				for c := range s {
					s[c] = -1
				}
				rows := 1 + rng.Int64N(600000)
				if rng.IntN(4) > 0 {
					s[colRows] = rows
				} else {
					rows = tc.cfg.Request.Rows
				}
				if rng.IntN(2) == 0 {
					s[colSequenceRows] = []int64{1024, 4096, 8192}[rng.IntN(3)]
				}
				if rng.IntN(3) == 0 {
					s[colProjectedRows] = 1 + rng.Int64N(rows)
					s[colTargetRows] = rng.Int64N(s[colProjectedRows] + 1) // else it scales past P
				}
				if rng.IntN(3) == 0 {
					s[colInUseBytes] = rng.Int64N(80 << 30)
				}
				line := WorkloadLine{Line: int64(i + 2), Count: 1, Shape: s}
				got, err := rep.Add(&line)
				if err != nil {
					t.Fatalf("shape %v: %v", s, err)
				}
				c, err := s.Config(tc.cfg)
				if err != nil {
					t.Fatalf("shape %v: Config: %v", s, err)
				}
				res, err := Estimate(c)
				if err != nil {
					t.Fatalf("shape %v: Estimate: %v", s, err)
				}
				want := ReplayLine{Line: line.Line, Rows: c.Request.Rows, Count: 1,
					Baseline: res.Baseline.Decision, Candidate: res.Candidate.Decision,
					BaselineChildren: res.Baseline.Children, CandidateChildren: res.Candidate.Children}
				if got != want {
					t.Fatalf("shape %v: the replay says %+v, the config estimates to %+v", s, got, want)
				}
			}
		})
	}
}

// TestShapeConfigInvalid: a shape that does not fit the config is an
// error naming the field, and leaves the config as it was.
func TestShapeConfigInvalid(t *testing.T) {
	t.Parallel()
	s := Shape{100, -1, 200, -1, -1}
	c, err := s.Config(Default())
	if err == nil {
		t.Fatalf("projected_rows 200 above rows 100 gave %+v", c.Request)
	}
	if es := FieldErrors(err); len(es) == 0 || es[0].Field != "request.projected_rows" {
		t.Errorf("error %v, want one naming request.projected_rows", err)
	}
	if c.Request.Rows != Default().Request.Rows {
		t.Errorf("the config changed on an error: rows %d", c.Request.Rows)
	}
}
