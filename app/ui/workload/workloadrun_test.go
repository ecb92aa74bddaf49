package workload

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"headroom/app/report"
	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// workloadConfig is examples/pressure.json: the FC2 seed's pressure.
func workloadConfig() estimator.Config {
	c := estimator.Default()
	c.Request.Rows = 200000
	c.Budget.InUseBytes = 68451041280
	return c
}

func keyOf(c estimator.Config) string { return urlquery.Encode(c).Encode() }

func exampleWorkload(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "..", "examples", "workload.csv"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// nativeReplay is what the replay command prints for cfg and data: the
// JSON, the Markdown and the CSV.
func nativeReplay(t *testing.T, cfg estimator.Config, data []byte) (js []byte, md string, csvOut []byte) {
	t.Helper()
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	w.Write(report.CSVHeader)
	res, err := estimator.Replay(cfg, bytes.NewReader(data), func(l estimator.ReplayLine) error { return report.WriteCSVRow(w, l) })
	if err != nil {
		t.Fatal(err)
	}
	w.Flush()
	var j bytes.Buffer
	enc := json.NewEncoder(&j)
	enc.SetIndent("", "  ")
	enc.Encode(res)
	return j.Bytes(), report.Markdown(res, cfg), buf.Bytes()
}

// runToEnd steps s in slices of n lines and returns how many slices it took.
func runToEnd(t *testing.T, s *workloadState, n int) int {
	t.Helper()
	slices := 0
	for s.step(n) {
		slices++
		if slices > 1e7 {
			t.Fatal("the run never ends")
		}
	}
	return slices + 1
}

// TestWorkloadStateSlices: the example replayed in slices of 64 lines
// gives byte for byte what the replay command gives, and the first changed
// lines' shapes.
func TestWorkloadStateSlices(t *testing.T) {
	cfg, data := workloadConfig(), exampleWorkload(t)
	var s workloadState
	s.setConfig(cfg, keyOf(cfg))
	s.load("workload.csv", data)
	if s.run == nil {
		t.Fatalf("no run: %s", s.err)
	}
	if got := s.status(); !strings.HasPrefix(got, "Replaying workload.csv: 0 lines") {
		t.Errorf("status before the first slice: %q", got)
	}
	slices := runToEnd(t, &s, 64)
	if s.shown == nil {
		t.Fatalf("no result after %d slices: %s", slices, s.err)
	}
	if want := 2000/64 + 1; slices < want {
		t.Errorf("%d slices of 64 lines for 2,000 lines, want at least %d", slices, want)
	}
	js, md, csvOut := nativeReplay(t, cfg, data)
	if !bytes.Equal(s.shown.json, js) {
		t.Errorf("JSON differs from the command's:\n%s\nwant\n%s", s.shown.json, js)
	}
	if s.shown.markdown != md {
		t.Errorf("Markdown differs from the command's:\n%s\nwant\n%s", s.shown.markdown, md)
	}
	if !bytes.Equal(s.shown.csv, csvOut) {
		t.Errorf("CSV differs from the command's (%d and %d bytes)", len(s.shown.csv), len(csvOut))
	}
	var total int64
	for _, n := range s.shown.hist.Requests {
		total += n
	}
	if total != s.shown.res.Requests {
		t.Errorf("the histogram holds %d requests, the replay %d", total, s.shown.res.Requests)
	}
	if n := min(len(s.shown.res.Changed), ShownChangedLines); len(s.shown.shapes) != n {
		t.Errorf("%d shapes kept, want %d", len(s.shown.shapes), n)
	}
	for _, l := range s.shown.res.Changed[:min(len(s.shown.res.Changed), ShownChangedLines)] {
		if sh, ok := s.shown.shapes[l.Line]; !ok || sh[0] != l.Rows {
			t.Errorf("line %d: shape %v, rows %d", l.Line, sh, l.Rows)
		}
	}
	if s.stale() || s.status() != "workload.csv: 2,000 lines (csv), 7,062 requests, replayed against the config shown." {
		t.Errorf("stale %v, status %q", s.stale(), s.status())
	}
}

// TestWorkloadStateCancel: a cancelled run shows nothing and stops.
func TestWorkloadStateCancel(t *testing.T) {
	cfg := workloadConfig()
	var s workloadState
	s.setConfig(cfg, keyOf(cfg))
	s.load("workload.csv", exampleWorkload(t))
	if !s.step(10) {
		t.Fatal("the run ended after 10 lines")
	}
	if s.run.lines() != 10 || s.run.progress() <= 0 || s.run.progress() >= 1 {
		t.Errorf("after a slice of 10: %d lines, progress %v", s.run.lines(), s.run.progress())
	}
	s.cancel()
	if s.run != nil || s.shown != nil || s.step(10) {
		t.Fatal("the run goes on after cancel")
	}
	if !strings.HasPrefix(s.status(), "Cancelled") {
		t.Errorf("status %q", s.status())
	}
}

// TestWorkloadStateRerun: a new config drops the run, keeps the old result
// on show (stale) and reruns once it settles; only the newest generation
// starts it.
func TestWorkloadStateRerun(t *testing.T) {
	a, data := workloadConfig(), exampleWorkload(t)
	var s workloadState
	s.setConfig(a, keyOf(a))
	s.load("workload.csv", data)
	runToEnd(t, &s, 500)
	old := s.shown

	b := a
	b.Budget.InUseBytes = 40 << 30
	g1 := s.setConfig(b, keyOf(b))
	c := b
	c.Request.SequenceRows = 8192
	g2 := s.setConfig(c, keyOf(c))
	if g1 == 0 || g2 == 0 || g1 == g2 {
		t.Fatalf("generations %d, %d", g1, g2)
	}
	if s.shown != old || !s.stale() || !strings.HasPrefix(s.status(), "The config changed") {
		t.Errorf("while settling: stale %v, status %q", s.stale(), s.status())
	}
	if s.settle(g1) {
		t.Error("an older generation started a rerun")
	}
	if !s.settle(g2) {
		t.Fatalf("the newest generation did not start a rerun: %s", s.err)
	}
	if s.setConfig(c, keyOf(c)) != 0 {
		t.Error("the same config asked for another rerun")
	}
	runToEnd(t, &s, 500)
	if s.shown == nil || s.shown.key != keyOf(c) || s.stale() {
		t.Fatalf("after the rerun: %+v, err %q", s.shown, s.err)
	}
	js, _, _ := nativeReplay(t, c, data)
	if !bytes.Equal(s.shown.json, js) {
		t.Error("the rerun's JSON differs from the command's for the new config")
	}
	// Back to a config already shown while nothing runs: no rerun.
	s.setConfig(a, keyOf(a))
	if g := s.setConfig(c, keyOf(c)); g != 0 || s.pending {
		t.Errorf("returning to the config shown asked for a rerun (gen %d)", g)
	}
}

// TestWorkloadStateErrors: each bad workload is a message naming what is
// wrong, and no result, however far the run got.
func TestWorkloadStateErrors(t *testing.T) {
	many := "rows\n" + strings.Repeat("1000\n", MaxWorkloadLines+1)
	lateBad := "rows,count\n" + strings.Repeat("1000,2\n", 5000) + "1000,0\n"
	for _, tc := range []struct {
		name, data string
		want       []string
	}{
		{"empty", "", []string{"workload", "empty"}},
		{"blank", " \n\n", []string{"empty"}},
		{"no rows column", "id,count\na,1\n", []string{"line 1", "header", "no rows column"}},
		{"bad cell", "rows,count\n100,1\n12x,1\n", []string{"line 3", "request.rows"}},
		{"header only", "rows\n", []string{"header", "no request lines"}},
		{"count 0 after 5,000 lines", lateBad, []string{"line 5002", "count"}},
		{"in_use above capacity", "rows,in_use_bytes\n100,999999999999999\n", []string{"line 2", "in_use_bytes"}},
		{"JSON Lines, not an object", "{\"rows\": 5}\n[1]\n", []string{"line 2"}},
		{"too many lines", many, []string{"1,000,002 lines", "headroom replay"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := estimator.Default()
			var s workloadState
			s.setConfig(cfg, keyOf(cfg))
			s.load("bad.csv", []byte(tc.data))
			runToEnd(t, &s, 1000)
			if s.shown != nil || s.run != nil {
				t.Fatalf("a result from a bad workload: %+v", s.shown)
			}
			got := s.status()
			for _, w := range append(tc.want, "Nothing was replayed from bad.csv") {
				if !strings.Contains(got, w) {
					t.Errorf("status %q lacks %q", got, w)
				}
			}
		})
	}
	t.Run("2 GB", func(t *testing.T) {
		err := checkWorkloadSize(2 << 30)
		if err == nil || !strings.Contains(err.Error(), "2,147,483,648 bytes") || !strings.Contains(err.Error(), "headroom replay") {
			t.Errorf("a 2 GB file: %v", err)
		}
		if err := checkWorkloadSize(MaxWorkloadBytes); err != nil {
			t.Errorf("64 MiB refused: %v", err)
		}
	})
}

// BenchmarkWorkloadRun replays 1,000,000 lines of varied shapes through
// the panel's state machine in slices of sliceLines, natively: the work
// the browser does between its frames, without the browser.
func BenchmarkWorkloadRun(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString("rows,count\n")
	for i := 0; i < 1000000; i++ {
		buf.WriteString(strconv.Itoa(1+(i*7919)%400000) + "," + strconv.Itoa(1+i%5) + "\n")
	}
	data := buf.Bytes()
	cfg := workloadConfig()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		var s workloadState
		s.setConfig(cfg, keyOf(cfg))
		s.load("million.csv", data)
		for s.step(sliceLines) {
		}
		if s.shown == nil || s.shown.res.Lines != 1000000 {
			b.Fatalf("no result: %s", s.err)
		}
	}
}
