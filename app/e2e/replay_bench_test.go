//go:build bench && !wasm

package e2e

// replay_1m_native_ms, the replay command's figure of make bench: a
// workload of 1,000,000 lines of varied shapes (examples/gen-workload,
// seed 7: nearly every line its own rows), replayed by the command line
// from a file under examples/pressure.json, three times; the median.
//
//	go test -count=1 -tags bench -run '^TestBenchReplay$' -v ./app/e2e

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"headroom/app/cli"
	"headroom/app/server"
)

func TestBenchReplay(t *testing.T) {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root, ok := server.ProjectRoot(wd)
	if !ok {
		t.Fatal("run from inside the project")
	}
	workload := filepath.Join(t.TempDir(), "workload-1m.csv")
	gen := exec.Command("go", "run", "./examples/gen-workload", "-seed", "7", "-lines", "1000000")
	gen.Dir = root
	data, err := gen.Output()
	if err != nil {
		t.Fatalf("go run ./examples/gen-workload: %v", err)
	}
	if err := os.WriteFile(workload, data, 0o644); err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(root, "examples", "pressure.json")
	var ms []float64
	for i := 0; i < 3; i++ {
		var errOut bytes.Buffer
		start := time.Now()
		code := cli.Run([]cli.Command{{Name: "replay", Run: cli.Replay}}, []string{"replay", "-config", config, "-workload", workload, "-format", "json"}, nil, io.Discard, &errOut)
		elapsed := time.Since(start)
		if code != 1 {
			t.Fatalf("replay exited %d (want 1: some requests change): %s", code, errOut.String())
		}
		ms = append(ms, float64(elapsed.Microseconds())/1e3)
	}
	t.Logf("replay of %d bytes, 1,000,000 lines: %v ms", len(data), ms)
	line := figure{"replay_1m_native_ms", round(percentile(ms, 50), 0), "ms"}.String() + "\n"
	appendFigure(t, line)
}

// appendFigure prints line, a figure of make bench, and adds it to
// -bench.out after TestBench's (which writes the file anew).
func appendFigure(t *testing.T, line string) {
	t.Helper()
	fmt.Print(line)
	if *benchOut == "" {
		return
	}
	f, err := os.OpenFile(*benchOut, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(line); err != nil {
		t.Fatal(err)
	}
}
