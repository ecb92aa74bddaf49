package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"

	"headroom/app/report"
	"headroom/estimator"
	"headroom/measure"
)

// MeasuredDevice is one device of a snapshot, with, when a config was
// given, each revision's estimate beside it and the observed points it
// gives (docs/model.md §12: each window's peak, or the device's peak).
type MeasuredDevice struct {
	measure.DeviceReport
	Estimate *MeasuredEstimate         `json:"estimate,omitempty"`
	Observed []estimator.ObservedPoint `json:"observed,omitempty"`
}

// MeasuredEstimate is the two revisions' comparison with a device's peak.
type MeasuredEstimate struct {
	Baseline  measure.RevisionMatch `json:"baseline"`
	Candidate measure.RevisionMatch `json:"candidate"`
}

// MeasuredSnapshot is the result of measure -snapshot.
type MeasuredSnapshot struct {
	File    string           `json:"file"`
	Format  string           `json:"format"`
	History bool             `json:"history"`
	Devices []MeasuredDevice `json:"devices"`
}

// Measure is the measure command: the measured peak of a PyTorch memory
// snapshot (-snapshot) beside both revisions' estimates of -config, or
// the plan comparisons, observed points and learned profile of ART's
// planner-miss reports (-planner-miss FILE...). It exits 0, or 2 with one
// line on standard error for a bad file, config or flag.
func Measure(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := newFlags("measure", stderr)
	var snapshots snapshotList
	fs.Var(&snapshots, "snapshot", "a memory snapshot: torch.cuda.memory._dump_snapshot's pickle, or its JSON form (gzip allowed); twice to compare two runs (A, then B)")
	planner := fs.String("planner-miss", "", "ART planner-miss reports: this file and every further argument")
	configPath := fs.String("config", "", "config JSON file (- = standard input): the estimate beside the snapshot's peak, in_use_bytes for the reports' points")
	format := fs.String("format", "json", "output: json, or md (a report for a pull request)")
	out := fs.String("o", "", "output file (default: standard output)")
	points := fs.Int("points", measure.DefaultTimelinePoints, "timeline points kept per device (2..100000)")
	setup := addSetupFlags(fs)
	files, err := parseArgs(fs, args)
	if err != nil {
		return fail(stderr, "measure", err)
	}
	if err := checkFormat(*format, "json", "md"); err != nil {
		return fail(stderr, "measure", err)
	}
	switch {
	case *planner == "" && len(files) > 0:
		// Only -planner-miss takes further arguments (its files).
		return fail(stderr, "measure", fmt.Errorf("unexpected argument %q (the flags come as -name value; measure -h lists them)", files[0]))
	case (len(snapshots) == 0) == (*planner == ""):
		return fail(stderr, "measure", errors.New("give one of -snapshot FILE or -planner-miss FILE..."))
	case len(snapshots) > 2:
		return fail(stderr, "measure", fmt.Errorf("-snapshot: %d files; give one, or two to compare", len(snapshots)))
	case *points < 2 || *points > 100000:
		return fail(stderr, "measure", fmt.Errorf("-points: must be an integer 2..100000, got %d", *points))
	}
	var cfg *estimator.Config
	if *configPath != "" || setup.any() {
		c, err := readSetup("measure", *configPath, setup, stdin, stderr)
		if err != nil {
			return fail(stderr, "measure", err)
		}
		cfg = &c
	}
	var text string
	var v any
	switch {
	case len(snapshots) == 2:
		res, err := measureRuns(snapshots[0], snapshots[1], cfg, *points)
		if err != nil {
			return fail(stderr, "measure", err)
		}
		v, text = res, runsMarkdown(res)
	case len(snapshots) == 1:
		res, err := measureSnapshot(snapshots[0], cfg, *points)
		if err != nil {
			return fail(stderr, "measure", err)
		}
		v, text = res, snapshotMarkdown(res)
	default:
		res, err := measurePlanner(append([]string{*planner}, files...), cfg)
		if err != nil {
			return fail(stderr, "measure", err)
		}
		v, text = res, plannerMarkdown(res)
	}
	dst, err := newOutput(*out, stdout)
	if err != nil {
		return fail(stderr, "measure", err)
	}
	defer dst.discard()
	if *format == "json" {
		err = encodeJSON(dst.w, v)
	} else {
		_, err = io.WriteString(dst.w, text)
	}
	if err == nil {
		err = dst.commit()
	}
	if err != nil {
		return fail(stderr, "measure", fmt.Errorf("writing the output: %v", err))
	}
	return 0
}

// snapshotList is -snapshot given once or twice.
type snapshotList []string

func (l *snapshotList) String() string { return strings.Join(*l, ",") }

func (l *snapshotList) Set(v string) error {
	*l = append(*l, v)
	return nil
}

func measureSnapshot(path string, cfg *estimator.Config, points int) (*MeasuredSnapshot, error) {
	// Most of the heap is the packed trace and the memo's handles, which
	// hold no pointer and cost the collector nothing to mark: collecting
	// at 10% growth instead of 100% keeps a 1 GiB snapshot's peak at 287
	// MB instead of 450 MB for the same CPU (make bench-measure).
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("-snapshot: %v", err)
	}
	defer f.Close()
	s, err := measure.ReadSnapshot(f, measure.ReadOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	devs, err := measure.Analyze(s, points)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	res := &MeasuredSnapshot{File: filepath.Base(path), Format: s.Format, History: s.History}
	for i := range devs {
		md := MeasuredDevice{DeviceReport: devs[i]}
		if cfg != nil && devs[i].History {
			m, err := measure.Compare(*cfg, &devs[i])
			if err != nil {
				return nil, fmt.Errorf("-config: %v", err)
			}
			md.Estimate = &MeasuredEstimate{Baseline: m[0], Candidate: m[1]}
			md.Observed = measure.ObservedPoints(&devs[i], m[1].Rows)
			report.WindowRows(*cfg, md.Observed)
		}
		res.Devices = append(res.Devices, md)
	}
	return res, nil
}

func measurePlanner(paths []string, cfg *estimator.Config) (*measure.PlannerImport, error) {
	raws := make([][]byte, len(paths))
	names := make([]string, len(paths))
	for i, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return nil, fmt.Errorf("-planner-miss: %v", err)
		}
		raws[i], err = io.ReadAll(io.LimitReader(f, measure.MaxReportBytes+1))
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %v", p, err)
		}
		names[i] = filepath.Base(p)
	}
	inUse := int64(0)
	if cfg != nil {
		inUse = cfg.Budget.InUseBytes
	}
	return measure.ImportReports(names, raws, inUse)
}

func gib(b int64) string { return estimator.Bytes(b).String() }

// snapshotMarkdown is the snapshot's report for a pull request.
func snapshotMarkdown(r *MeasuredSnapshot) string {
	var b strings.Builder
	fmt.Fprintf(&b, "## Measured peak: %s\n\n", report.MarkdownCell(r.File))
	for _, d := range r.Devices {
		fmt.Fprintf(&b, "### cuda:%d\n\n", d.Device)
		if !d.History {
			fmt.Fprintf(&b, "No peak: %s.\n\nAllocated at the snapshot: %s.\n\n", report.MarkdownCell(d.Note), gib(d.CurrentBytes))
			continue
		}
		at := "before the first trace entry"
		if d.PeakEvent >= 0 {
			at = fmt.Sprintf("at trace entry %d (time_us %d)", d.PeakEvent, d.PeakTimeUS)
		}
		fmt.Fprintf(&b, "Allocated peak **%s** %s, of %d entries. Allocated before the trace began: %s in %d blocks. The allocator's rounding at the peak: %s (requested %s). An allocation ends at its %s entry.\n\n",
			gib(d.PeakBytes), at, d.Events, gib(d.InitialBytes), d.InitialBlocks, gib(d.RoundingBytes), gib(d.PeakRequestedBytes), d.FreeEvent)
		if e := d.Estimate; e != nil {
			b.WriteString("| revision | piece rows | predicted peak | measured - predicted | at the peak |\n|---|---:|---:|---:|---|\n")
			for _, m := range []measure.RevisionMatch{e.Baseline, e.Candidate} {
				fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", m.Revision, estimator.Group(m.Rows), gib(m.PredictedBytes), estimator.Bytes(m.ResidualBytes).DeltaString(), report.MarkdownCell(m.Best.Summary))
			}
			b.WriteString("\n")
		}
		const shown = 20
		fmt.Fprintf(&b, "Live at the peak: %d blocks, largest first", len(d.LiveAtPeak))
		if len(d.LiveAtPeak) > shown {
			fmt.Fprintf(&b, " (the first %d)", shown)
		}
		b.WriteString(". A size in italics is the requested size rounded to 512 bytes (the trace records requested sizes).\n\n| size | requested | rounding | allocated at | frame |\n|---:|---:|---:|---|---|\n")
		for i, l := range d.LiveAtPeak {
			if i == shown {
				break
			}
			size := estimator.Group(l.Size)
			if !l.SizeExact {
				size = "_" + size + "_"
			}
			when := "before the trace"
			if l.Event >= 0 {
				when = fmt.Sprintf("entry %d", l.Event)
			}
			frame := "-"
			if l.Frame != "" {
				frame = report.MarkdownCode(l.Frame)
			}
			fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", size, estimator.Group(l.RequestedSize), estimator.Group(l.RoundingBytes), when, frame)
		}
		b.WriteString("\n")
		if len(d.Windows) > 0 {
			b.WriteString("| window | entries | peak |\n|---|---|---:|\n")
			for _, w := range d.Windows {
				fmt.Fprintf(&b, "| %s | %d-%d | %s |\n", report.MarkdownCell(w.Label), w.FromEvent, w.ToEvent, gib(w.PeakBytes))
			}
			b.WriteString("\n")
		}
		for _, o := range d.OOMs {
			fmt.Fprintf(&b, "An out-of-memory error at entry %d: %s requested, %s free on the device.\n\n", o.Event, gib(o.Size), gib(o.DeviceFree))
		}
		allocatorMarkdown(&b, d.Allocator)
		if len(d.Observed) > 0 {
			pts, _ := json.Marshal(map[string]any{"observed": d.Observed})
			pts = report.JSONText(pts)
			fmt.Fprintf(&b, "As observed points (each of the candidate's piece of %s rows):\n\n```json\n%s\n```\n\n", estimator.Group(d.Estimate.Candidate.Rows), pts)
		}
		for _, w := range d.Warnings {
			fmt.Fprintf(&b, "- %s\n", report.MarkdownCell(w))
		}
	}
	return b.String()
}

// allocatorMarkdown is the allocator's view: reserved beside allocated,
// and the free room at the peak and at the snapshot.
func allocatorMarkdown(b *strings.Builder, av *measure.AllocatorView) {
	if av == nil {
		return
	}
	at := "before the first trace entry"
	if av.ReservedPeakEvent >= 0 {
		at = fmt.Sprintf("at trace entry %d", av.ReservedPeakEvent)
	}
	fmt.Fprintf(b, "Reserved (the segments): peak **%s** %s; %s before the trace began.\n\n", gib(av.ReservedPeakBytes), at, gib(av.InitialReservedBytes))
	b.WriteString("| point | segments | reserved | allocated | free | free blocks | largest free block | needed | fits |\n|---|---:|---:|---:|---:|---:|---:|---:|---|\n")
	for _, p := range []struct {
		name string
		st   measure.SegmentState
	}{{"allocated peak (modelled)", av.AtPeak}, {"snapshot", av.AtEnd}} {
		if p.st.Segments == 0 && p.st.NeedBytes == 0 {
			continue
		}
		fits := "yes"
		switch {
		case p.st.Stranded:
			fits = "no: room that cannot be used"
		case !p.st.Fits:
			fits = "no"
		}
		fmt.Fprintf(b, "| %s | %d | %s | %s | %s | %d | %s | %s | %s |\n", p.name, p.st.Segments, gib(p.st.ReservedBytes), gib(p.st.AllocatedBytes),
			gib(p.st.FreeBytes), p.st.FreeBlocks, gib(p.st.LargestFreeBlock), gib(p.st.NeedBytes), fits)
	}
	if av.AtEnd.Need != "" {
		fmt.Fprintf(b, "\nNeeded: %s.\n", av.AtEnd.Need)
	}
	if u := av.AtPeak.UnplacedBytes; u > 0 {
		fmt.Fprintf(b, "\nAt the peak, %s of live blocks lie in no segment the snapshot or its trace records.\n", gib(u))
	}
	b.WriteString("\n")
}

// plannerMarkdown is the reports' summary for a pull request.
func plannerMarkdown(r *measure.PlannerImport) string {
	var b strings.Builder
	b.WriteString("## ART planner-miss reports\n\n")
	if len(r.Comparisons) > 0 {
		b.WriteString("| report | phase | children | packed tokens | predicted | observed | error % |\n|---|---|---:|---:|---:|---:|---:|\n")
		for _, c := range r.Comparisons {
			pct := "-"
			if c.ErrorPct != nil {
				pct = fmt.Sprintf("%.2f", *c.ErrorPct)
			}
			fmt.Fprintf(&b, "| %s (%s) | %s | %d | %s | %s | %s | %s |\n", c.ID[:8], report.MarkdownCell(c.File), report.MarkdownCell(c.Phase), c.Children,
				estimator.Group(c.PackedTokens), gib(c.PredictedPeakBytes), gib(c.ObservedPeakBytes), pct)
		}
		b.WriteString("\n")
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(&b, "- skipped %s (%s, %s): %s\n", report.MarkdownCell(s.File), report.MarkdownCell(s.ID[:min(8, len(s.ID))]), report.MarkdownCell(s.Event), report.MarkdownCell(s.Reason))
	}
	if len(r.Skipped) > 0 {
		b.WriteString("\n")
	}
	if r.Profile != nil {
		pts, _ := json.Marshal(map[string]any{"observed": r.Points})
		pts = report.JSONText(pts)
		prof, _ := json.Marshal(map[string]any{"profile_memory": r.Profile})
		fmt.Fprintf(&b, "Observed points (%d):\n\n```json\n%s\n```\n\nThe learned profile ART would hold (docs/model.md §13.7):\n\n```json\n%s\n```\n", len(r.Points), pts, prof)
	} else {
		b.WriteString("No report gives an observed point, so there is no learned profile.\n")
	}
	return b.String()
}
