package estimator

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"testing"
)

// The no-resident golden: configs without a "resident" group must price
// exactly as they did before resident memory existed (docs/model.md §14:
// "a config without one behaves exactly as before this section"). Each
// line of testdata/noresident_golden.jsonl holds a config and what
// Estimate and Sweep (along hidden_size, vocab_size and rows) made of it
// when the file was written. The test reads the configs back from the file,
// not from the generators, so a change to the generators cannot move it;
// go test -run NoResidentGolden -update ./estimator/ rewrites it.

const noResidentGolden = "noresident_golden.jsonl"

// goldenLine is one line of the golden file.
type goldenLine struct {
	Config   json.RawMessage `json:"config"`
	Estimate json.RawMessage `json:"estimate,omitempty"`
	Error    string          `json:"error,omitempty"`
	Sweeps   []goldenSweep   `json:"sweeps,omitempty"`
}

// goldenSweep is one axis: the flips over a grid, and the points of a
// short grid (decisions, bytes and invalid messages).
type goldenSweep struct {
	Axis   string          `json:"axis"`
	From   int64           `json:"from"`
	To     int64           `json:"to"`
	Flips  json.RawMessage `json:"flips,omitempty"`
	Points json.RawMessage `json:"points,omitempty"`
	Error  string          `json:"error,omitempty"`
}

// goldenConfigsNoResident are the configs the golden file was written
// from: random configs, some with terms, a baseline of their own (its
// overrides) or observed points.
func goldenConfigsNoResident(t *testing.T) []Config {
	rng := rand.New(rand.NewPCG(0x7265736964, 0x656e74)) // "resident"
	out := []Config{Default()}                           // the explorer's own default, too
	for i := 0; len(out) < 300; i++ {
		c := goldenRandomConfig(t, rng, i)
		if _, err := DecodeConfig(MarshalConfig(c)); err == nil {
			out = append(out, c) // a config the format reads back
		}
	}
	return out
}

// goldenAxisRange is the range a golden sweep covers along axis.
func goldenAxisRange(c Config, axis string) (from, to int64) {
	switch axis {
	case "hidden_size":
		return 1, min(2*c.Model.HiddenSize+7, maxWidth)
	case "vocab_size":
		return 1, min(2*c.Model.VocabSize+11, 1<<26)
	}
	return 1, min(2*c.Request.Rows+3, maxRows)
}

// computeGolden prices c as the golden file records it.
func computeGolden(t *testing.T, c Config) goldenLine {
	line := goldenLine{Config: json.RawMessage(compactJSON(t, MarshalConfig(c)))}
	res, err := Estimate(c)
	if err != nil {
		line.Error = err.Error()
	} else {
		line.Estimate = mustJSON(res)
	}
	for _, axis := range []string{"hidden_size", "vocab_size", "rows"} {
		from, to := goldenAxisRange(c, axis)
		gs := goldenSweep{Axis: axis, From: from, To: to}
		sw, err := Sweep(c, axis, from, to, 17)
		if err != nil {
			gs.Error = err.Error()
		} else {
			gs.Flips = mustJSON([2]Flips{sw.Baseline, sw.Candidate})
			s, _ := NewSweeper(c, axis)
			gs.Points = mustJSON(s.AppendPoints(nil, Grid(from, to, 5)))
		}
		line.Sweeps = append(line.Sweeps, gs)
	}
	return line
}

func TestNoResidentGolden(t *testing.T) {
	t.Parallel()
	path := filepath.Join("testdata", noResidentGolden)
	if *update {
		var lines [][]byte
		for i, c := range goldenConfigsNoResident(t) {
			// The line is computed from the config as read back, so the
			// file is exactly what the test will check.
			dc, err := DecodeConfig(MarshalConfig(c))
			if err != nil {
				t.Fatalf("config %d does not read back: %v", i, err)
			}
			lines = append(lines, mustJSON(computeGolden(t, dc)))
		}
		writeGoldenLines(t, path, lines)
		return
	}
	n := eachGoldenLine(t, path, func(n int, line []byte) {
		var want goldenLine
		if err := json.Unmarshal(line, &want); err != nil {
			t.Fatalf("line %d: %v", n, err)
		}
		c, err := DecodeConfig(want.Config)
		if err != nil {
			t.Fatalf("line %d: config no longer decodes: %v", n, err)
		}
		got := mustJSON(computeGolden(t, c))
		if !bytes.Equal(got, line) {
			t.Errorf("line %d differs from %s:\n got: %s\nwant: %s", n, path, clipGolden(got), clipGolden(line))
		}
	})
	if n < 300 {
		t.Fatalf("%s has %d lines, want 300", path, n)
	}
}

func clipGolden(b []byte) string {
	if len(b) > 2000 {
		return fmt.Sprintf("%s... (%d bytes)", b[:2000], len(b))
	}
	return string(b)
}
