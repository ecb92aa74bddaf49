package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"headroom/measure"
)

// hostileText is text made to break out of a Markdown table (a pipe, a
// backtick, a line end opening a heading, HTML, a link) and to drive a
// terminal (ESC, BEL, OSC 0 setting the window's title, C1's CSI).
const hostileText = "x`|\n## injected\n<img src=x>[a](javascript:b)\x1b]0;title\x07\u009b2J|"

// controlIn reports what in out could reach a terminal as a control
// (a line end and a tab are text there), or that out is not UTF-8.
func controlIn(out string) string {
	if !utf8.ValidString(out) {
		return "bytes that are not UTF-8"
	}
	for _, r := range out {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
			return "a control character"
		}
	}
	return ""
}

// checkTable fails when a line of md's tables has a number of cell
// borders (unescaped pipes) other than its header's, or when injected
// text became a heading, HTML or a link.
func checkTable(t *testing.T, md string) {
	t.Helper()
	borders := -1
	for _, line := range strings.Split(md, "\n") {
		if !strings.HasPrefix(line, "|") {
			borders = -1
			continue
		}
		n := 0
		for i := 0; i < len(line); i++ {
			if line[i] == '|' && (i == 0 || line[i-1] != '\\') {
				n++
			}
		}
		if borders < 0 {
			borders = n
		} else if n != borders {
			t.Errorf("a row with %d borders in a table of %d: %q", n, borders, line)
		}
	}
	for _, bad := range []string{"\n## injected", "<img", "](javascript"} { // <code> stands for a code span
		if strings.Contains(strings.ReplaceAll(withoutCodeSpans(md), `\](`, ""), bad) {
			t.Errorf("the Markdown holds %q:\n%s", bad, md)
		}
	}
	if why := controlIn(md); why != "" {
		t.Errorf("the Markdown holds %s: %q", why, md)
	}
}

// withoutCodeSpans is md with the text of its code spans (a run of n
// backticks to the next run of exactly n; an escaped backtick opens
// none) left out: inside one, Markdown reads no HTML and no link.
func withoutCodeSpans(md string) string {
	var b strings.Builder
	run := func(i int) int {
		j := i
		for j < len(md) && md[j] == '`' {
			j++
		}
		return j - i
	}
	for i := 0; i < len(md); {
		if md[i] == '\\' && i+1 < len(md) {
			b.WriteString(md[i : i+2])
			i += 2
			continue
		}
		if md[i] != '`' {
			b.WriteByte(md[i])
			i++
			continue
		}
		n := run(i)
		end := -1
		for j := i + n; j < len(md); {
			if md[j] == '`' {
				if m := run(j); m == n {
					end = j + m
					break
				} else {
					j += m
				}
				continue
			}
			j++
		}
		if end < 0 {
			b.WriteString(md[i : i+n])
			i += n
			continue
		}
		b.WriteString("<code>")
		i = end
	}
	return b.String()
}

// TestMeasureMarkdownEscapes: a snapshot's frame and a report's phase and
// file name hold hostileText; measure -format md keeps every table
// whole, and neither md nor json lets a control byte through.
func TestMeasureMarkdownEscapes(t *testing.T) {
	dir := t.TempDir()
	snap, err := os.ReadFile(filepath.Join(measureData, "snapshots", "head.json"))
	if err != nil {
		t.Fatal(err)
	}
	quoted, _ := json.Marshal(hostileText + ".py")
	const frame = `"/opt/art/src/art/trainer_rank/_head.py"`
	if !bytes.Contains(snap, []byte(frame)) {
		t.Fatal("head.json has no head frame")
	}
	snapFile := filepath.Join(dir, "snap.json")
	os.WriteFile(snapFile, bytes.ReplaceAll(snap, []byte(frame), quoted), 0o644)

	report, err := os.ReadFile(filepath.Join(measureData, "reports", "miss-forward-a.json"))
	if err != nil {
		t.Fatal(err)
	}
	// The phase as ART's canonical JSON writes it (ensure_ascii).
	var phase strings.Builder
	for _, r := range hostileText {
		switch {
		case r == '\n':
			phase.WriteString(`\n`)
		case r < 0x20 || r > 0x7e:
			phase.WriteString(`\u00` + string("0123456789abcdef"[r>>4]) + string("0123456789abcdef"[r&0xf]))
		default:
			phase.WriteRune(r)
		}
	}
	reportFile := filepath.Join(dir, "miss|`<b>.json")
	os.WriteFile(reportFile, bytes.Replace(report, []byte(`"phase":"forward"`), []byte(`"phase":"`+phase.String()+`"`), 1), 0o644)

	for _, args := range [][]string{
		{"-snapshot", snapFile, "-config", "-", "-format", "md"},
		{"-planner-miss", reportFile, "-format", "md"},
	} {
		code, out, errOut := runMain(Measure, rows4096, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if !strings.Contains(out, "injected") {
			t.Fatalf("%v: the hostile text is not in the report:\n%s", args, out)
		}
		checkTable(t, out)
		args[len(args)-1] = "json"
		code, out, errOut = runMain(Measure, rows4096, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, errOut)
		}
		if why := controlIn(out); why != "" {
			t.Errorf("%v: the JSON holds %s", args, why)
		}
	}
}

// TestReplayOutputsNeutralise: workload ids that a spreadsheet would run
// as formulas, or that hold terminal controls, are neutralised in
// replay's CSV, escaped in its Markdown and JSON.
func TestReplayOutputsNeutralise(t *testing.T) {
	ids := []string{`=HYPERLINK("http://x","y")`, "+SUM(1)", "-2+3", "@x", "\t=1", "\r=1", hostileText}
	var workload strings.Builder
	for _, id := range ids {
		line, _ := json.Marshal(map[string]any{"id": id, "rows": 300000})
		workload.Write(line)
		workload.WriteByte('\n')
	}
	wl := filepath.Join(t.TempDir(), "w.jsonl")
	os.WriteFile(wl, []byte(workload.String()), 0o644)
	code, out, errOut := runCmd(t, "{}", "replay", "-config", "-", "-workload", wl, "-format", "csv")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if why := controlIn(out); why != "" {
		t.Errorf("the CSV holds %s: %q", why, out)
	}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n")[1:] {
		cells := strings.SplitN(line, ",", 2)
		id := strings.TrimPrefix(cells[1], `"`)
		if strings.ContainsAny(id[:1], "=+-@\t\r") {
			t.Errorf("the id cell of %q starts a formula", line)
		}
	}
	for _, format := range []string{"md", "json"} {
		code, out, errOut = runCmd(t, "{}", "replay", "-config", "-", "-workload", wl, "-format", format)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", format, code, errOut)
		}
		if why := controlIn(out); why != "" {
			t.Errorf("%s holds %s", format, why)
		}
		if format == "md" {
			checkTable(t, out)
		}
	}
}

// TestRunsMarkdownEscapes: two runs' comparison prints the files' names,
// the blocks' top frames and the windows' labels, all from the files; its
// Markdown escapes each as measure's one-run tables do.
func TestRunsMarkdownEscapes(t *testing.T) {
	r := &MeasuredRuns{
		A: &MeasuredSnapshot{File: hostileText},
		B: &MeasuredSnapshot{File: hostileText},
		Devices: []measure.DeviceComparison{{
			OnlyA:   measure.BlockGroup{Count: 1, Bytes: 512, Blocks: []measure.BlockChange{{Frame: hostileText, ABytes: 512}}},
			Windows: []measure.WindowPair{{Label: hostileText, A: &measure.Window{PeakBytes: 1}, B: &measure.Window{PeakBytes: 2}, DeltaBytes: 1}},
		}},
	}
	md := runsMarkdown(r)
	if !strings.Contains(md, "injected") {
		t.Fatalf("the hostile text is missing from the Markdown, so nothing was checked:\n%s", md)
	}
	checkTable(t, md)
}
