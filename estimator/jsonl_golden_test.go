package estimator

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// The helpers of the line-a-config goldens (TestNoResidentGolden and
// TestSeedsGolden): one JSON object a line, read back config by config.

// goldenRandomConfig is the i-th config of a golden's mix: random configs,
// some with terms, a baseline of their own (its overrides) or observed
// points. The draws from rng are the goldens' own; do not reorder them.
func goldenRandomConfig(t *testing.T, rng *rand.Rand, i int) Config {
	switch i % 5 {
	case 2:
		return randomTermsConfig(rng)
	case 3:
		return randomBaseline(t, rng, randomConfig(rng))
	case 4:
		c := randomConfig(rng)
		randomObserved(rng, &c)
		return c
	}
	return randomConfig(rng)
}

// mustJSON is v's JSON; results always marshal, so a failure is a bug in
// the test.
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// compactJSON is b without insignificant space.
func compactJSON(t testing.TB, b []byte) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// writeGoldenLines writes lines, each ended by a newline, as the golden
// file at path (for -update).
func writeGoldenLines(t *testing.T, path string, lines [][]byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	for _, line := range lines {
		buf.Write(line)
		buf.WriteByte('\n')
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// eachGoldenLine calls check with each line of the golden file at path
// (numbered from 1) and returns how many there were.
func eachGoldenLine(t *testing.T, path string, check func(n int, line []byte)) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	n := 0
	for sc.Scan() {
		n++
		check(n, sc.Bytes())
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return n
}
