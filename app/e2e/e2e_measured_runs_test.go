//go:build !wasm

package e2e

// Two runs on the Observed peaks panel in a real browser: a generated
// snapshot dropped as run A, a second one picked with "Compare with
// another run" as run B, and the comparison measure.CompareRuns makes
// read from the page; a bad second file is refused by name with run A
// and the comparison left as they were.

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"headroom/estimator"
	"headroom/measure"
	"headroom/measure/snapgen"
)

// pickFiles sets files (name: bytes) on the file input id and fires its
// change event, as choosing them in the file dialog does.
func (tb *tab) pickFiles(id string, names []string, files [][]byte) {
	tb.t.Helper()
	var adds bytes.Buffer
	for i, n := range names {
		fmt.Fprintf(&adds, "dt.items.add(new File([bytes(%s)], %s));\n",
			jsString(base64.StdEncoding.EncodeToString(files[i])), jsString(n))
	}
	tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const bytes = b64 => {
			const s = atob(b64), u = new Uint8Array(s.length);
			for (let i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
			return u;
		};
		const dt = new DataTransfer();
		%s
		const input = document.getElementById(%s);
		input.files = dt.files;
		input.dispatchEvent(new Event('change', {bubbles: true}));
	})()`, adds.String(), jsString(id))))
}

// generatedSnapshot writes a snapshot with snapgen and analyses it as
// headroom measure does.
func generatedSnapshot(t *testing.T, o snapgen.Options) ([]byte, []measure.DeviceReport) {
	t.Helper()
	var buf bytes.Buffer
	if _, err := snapgen.Write(&buf, o); err != nil {
		t.Fatal(err)
	}
	s, err := measure.ReadSnapshot(bytes.NewReader(buf.Bytes()), measure.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	devs, err := measure.Analyze(s, 0)
	if err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), devs
}

// runsStatus is the status with the bytes read, for waits.
const runsStatus = measuredStatus + ` + ' (read ' + (document.getElementById('measured-progress')?.dataset.bytes ?? '-') + ' bytes)'`

// TestE2EMeasuredTwoRuns drops run A, picks run B and reads each run's
// allocated and reserved peaks and B − A, both revisions' predictions
// beside both runs (measure.Compare), the start, the groups' counts and
// the windows from the page, as measure.CompareRuns makes them.
func TestE2EMeasuredTwoRuns(t *testing.T) {
	dataA, devA := generatedSnapshot(t, snapgen.Options{Seed: 21, Allocs: 2000, AnnotateEvery: 500})
	dataB, devB := generatedSnapshot(t, snapgen.Options{Seed: 22, Allocs: 2400, AnnotateEvery: 500})
	cmp := measure.CompareRuns(devA, devB)
	if len(cmp) != 1 || cmp[0].PeakDeltaBytes == 0 {
		t.Fatalf("the generated runs compare as %+v: the test needs one device and a difference", cmp)
	}
	c := cmp[0]
	t.Logf("run A has %d bytes, run B %d", len(dataA), len(dataB))
	link, cfg := measuredLink(t)
	ma, errA := measure.Compare(cfg, &devA[0])
	mb, errB := measure.Compare(cfg, &devB[0])
	if errA != nil || errB != nil {
		t.Fatal(errA, errB)
	}
	tb := newTab(t)
	tb.open(link)
	tb.waitFor("the measured part of the panel", `!!document.getElementById('measured-status')`, 10*time.Second)
	tb.dropFiles("observed-panel", []string{"run-a.pickle"}, [][]byte{dataA})
	tb.waitFor("run A read, with the input for run B", `document.getElementById('measured-status')?.dataset.state === 'done' &&
		!!document.getElementById('measured-file-b') || `+measuredStatus, 60*time.Second)

	tb.pickFiles("measured-file-b", []string{"run-b.pickle"}, [][]byte{dataB})
	tb.waitFor("the two runs compared", `document.getElementById('measured-status')?.dataset.state === 'done' &&
		!!document.getElementById('measured-runs-peaks-0') || `+runsStatus, 60*time.Second)

	rows := eval[[][]string](tb, `[...document.querySelectorAll('#measured-runs-peaks-0 tbody tr')].map(tr =>
		[tr.dataset.row, tr.dataset.aBytes, tr.dataset.bBytes, tr.dataset.deltaBytes, tr.children[3].textContent])`)
	want := [][]string{
		{"allocated", fmt.Sprint(c.A.PeakBytes), fmt.Sprint(c.B.PeakBytes), fmt.Sprint(c.PeakDeltaBytes), estimator.Bytes(c.PeakDeltaBytes).DeltaString()},
		{"reserved", fmt.Sprint(c.A.ReservedPeakBytes), fmt.Sprint(c.B.ReservedPeakBytes), fmt.Sprint(c.ReservedDeltaBytes), estimator.Bytes(c.ReservedDeltaBytes).DeltaString()},
	}
	for k := range ma {
		want = append(want, []string{"predicted-" + ma[k].Revision, fmt.Sprint(ma[k].PredictedBytes), fmt.Sprint(mb[k].PredictedBytes),
			fmt.Sprint(mb[k].PredictedBytes - ma[k].PredictedBytes), "measured − predicted: A " + estimator.Bytes(ma[k].ResidualBytes).DeltaString() +
				", B " + estimator.Bytes(mb[k].ResidualBytes).DeltaString()})
	}
	if fmt.Sprint(rows) != fmt.Sprint(want) {
		t.Errorf("the page's peaks are %q;\nheadroom measure says %q", rows, want)
	}
	if got := eval[string](tb, `document.getElementById('measured-runs-start-0')?.dataset.equal ?? '<none>'`); got != fmt.Sprint(c.EqualStart) {
		t.Errorf("equal start %s, want %v", got, c.EqualStart)
	}
	counts := eval[[]string](tb, `[...document.querySelectorAll('#measured-runs-groups-0 tbody tr')].map(tr => tr.dataset.group + ' ' + tr.dataset.count)`)
	wantCounts := []string{"unchanged " + fmt.Sprint(c.Unchanged.Count), "only-a " + fmt.Sprint(c.OnlyA.Count), "only-b " + fmt.Sprint(c.OnlyB.Count),
		"grown " + fmt.Sprint(c.Grown.Count), "shrunk " + fmt.Sprint(c.Shrunk.Count)}
	if fmt.Sprint(counts) != fmt.Sprint(wantCounts) {
		t.Errorf("the groups are %q, want %q", counts, wantCounts)
	}
	if got := eval[int](tb, `document.querySelectorAll('#measured-runs-windows-0 tbody tr').length`); got != len(c.Windows) {
		t.Errorf("%d windows shown, want %d", got, len(c.Windows))
	}
	if got := eval[string](tb, `document.getElementById('measured-peak-0')?.dataset.peakBytes ?? ''`); got != fmt.Sprint(devA[0].PeakBytes) {
		t.Errorf("run A's peak shown is %q, want %d", got, devA[0].PeakBytes)
	}

	// A bad second file is refused by name; run A and the comparison stay.
	tb.pickFiles("measured-file-b", []string{"cut.pickle"}, [][]byte{dataA[:len(dataA)/2]})
	tb.waitFor("the truncated second run refused", `document.getElementById('measured-status')?.dataset.state === 'failed' &&
		document.getElementById('measured-status').textContent.includes('cut.pickle') || `+measuredStatus, 30*time.Second)
	if got := eval[string](tb, `document.getElementById('measured-peak-0')?.dataset.peakBytes ?? ''`); got != fmt.Sprint(devA[0].PeakBytes) {
		t.Errorf("after a bad second file run A's peak shown is %q", got)
	}
	if got := eval[string](tb, `document.querySelector('#measured-runs-peaks-0 tr[data-row=allocated]')?.dataset.deltaBytes ?? '<no comparison>'`); got != fmt.Sprint(c.PeakDeltaBytes) {
		t.Errorf("after a bad second file the comparison's difference is %q", got)
	}
	tb.checkConsole()
}
