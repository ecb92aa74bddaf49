package estimator

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
)

// The seeds golden: a few hundred random configs and what today's code
// says of them (MarshalConfig of the config, MarshalJSON of its Estimate,
// and for some a Sweep), one JSON object a line. It was written before the
// art profile (docs/model.md §13) existed, and proves that the seeds
// profile, the default, is byte-identical to sections 1-12: the configs are
// read back from the file, so the generators may change without moving it.
// Refresh only with go test -run TestSeedsGolden -update ./estimator/.
const seedsGoldenPath = "testdata/seeds_golden.jsonl"

// seedsGoldenCase is one line of the golden file.
type seedsGoldenCase struct {
	Config   json.RawMessage  `json:"config"`
	Estimate json.RawMessage  `json:"estimate,omitempty"`
	Error    string           `json:"error,omitempty"`
	Sweep    *goldenSweepArgs `json:"sweep,omitempty"`
	Swept    json.RawMessage  `json:"swept,omitempty"`
}

type goldenSweepArgs struct {
	Axis     string `json:"axis"`
	From, To int64
	Points   int `json:"points"`
}

// seedsGoldenConfigs makes the configs of the golden file: random shapes
// with their budget placed near a plan, some with terms, a baseline of
// their own, observed points, outputs, grad modes and EP > 1 as the
// generators give them.
func seedsGoldenConfigs(t *testing.T) []seedsGoldenCase {
	rng := rand.New(rand.NewPCG(0x5eed5, 0x901d))
	var out []seedsGoldenCase
	for i := 0; i < 300; i++ {
		c := goldenRandomConfig(t, rng, i)
		if i%7 == 0 {
			c.FC2.ExpertParallel = between(rng, 2, 16)
		}
		gc := seedsGoldenCase{Config: MarshalConfig(c)}
		if i%4 == 0 {
			axis, from, to := randomAxisRange(rng, c)
			if i%8 == 0 {
				axis = []string{"rows", "capacity_bytes", "hidden_size", "sequence_rows"}[rng.IntN(4)]
				f, _ := FieldByKey(axis)
				v, _ := f.Int(&c)
				from, to = max(f.Min, v/4), min(f.Max, v*4+10)
			}
			gc.Sweep = &goldenSweepArgs{Axis: axis, From: from, To: to, Points: 64}
		}
		out = append(out, gc)
	}
	return out
}

// run fills the outputs of gc from its config, as the code prices it now.
func (gc *seedsGoldenCase) run(t *testing.T) {
	t.Helper()
	c, err := DecodeConfig(gc.Config)
	gc.Estimate, gc.Error, gc.Swept = nil, "", nil
	if err != nil {
		gc.Error = "decode: " + err.Error()
		return
	}
	if got := MarshalConfig(c); !bytes.Equal(compactJSON(t, got), compactJSON(t, gc.Config)) {
		gc.Error = "config marshals differently: " + string(got)
		return
	}
	res, err := Estimate(c)
	if err != nil {
		gc.Error = err.Error()
	} else {
		gc.Estimate, _ = json.Marshal(res)
	}
	if gc.Sweep != nil {
		s, err := Sweep(c, gc.Sweep.Axis, gc.Sweep.From, gc.Sweep.To, gc.Sweep.Points)
		if err != nil {
			gc.Swept, _ = json.Marshal("error: " + err.Error())
		} else {
			gc.Swept, _ = json.Marshal(s)
		}
	}
}

func TestSeedsGolden(t *testing.T) {
	t.Parallel()
	if *update {
		var lines [][]byte
		for _, gc := range seedsGoldenConfigs(t) {
			gc.Config = compactJSON(t, gc.Config)
			gc.run(t)
			line, err := json.Marshal(gc)
			if err != nil {
				t.Fatal(err)
			}
			lines = append(lines, line)
		}
		writeGoldenLines(t, seedsGoldenPath, lines)
		return
	}
	estimates, sweeps := 0, 0
	lines := eachGoldenLine(t, seedsGoldenPath, func(n int, line []byte) {
		var want seedsGoldenCase
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		got := want
		got.run(t)
		if got.Error != want.Error || !bytes.Equal(got.Estimate, want.Estimate) || !bytes.Equal(got.Swept, want.Swept) {
			t.Errorf("line %d (%s) differs from the seeds golden:\n got: %s %s %s\nwant: %s %s %s", n, strings.TrimSpace(string(want.Config[:min(len(want.Config), 200)])),
				got.Error, got.Estimate, got.Swept, want.Error, want.Estimate, want.Swept)
		}
		if want.Estimate != nil {
			estimates++
		}
		if want.Sweep != nil {
			sweeps++
		}
	})
	if lines < 200 || estimates < 150 || sweeps < 50 {
		t.Errorf("the golden holds %d lines, %d estimates, %d sweeps; want a few hundred", lines, estimates, sweeps)
	}
}
