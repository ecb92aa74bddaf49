package measured

import (
	"strconv"

	"headroom/estimator"
	"headroom/measure"
)

// Two runs on the page (docs/model.md, "Two runs"): a second snapshot,
// read as the first is, set beside it by measure.CompareRuns. This is the
// comparison's model: the figures measure computes, written as the panel
// shows them. The byte arithmetic is measure's; here it is only written.

// changesShown is how many of each group's largest changes the panel
// lists (measure keeps at most 50).
const changesShown = 5

// runsView is what the panel shows of two runs.
type runsView struct {
	FileA, FileB string
	Devices      []runsDevice

	// The predictions beside each device's runs, for the config they
	// were made for (made again when it changes).
	predFor viewKey
	preds   []predictions
}

// predictions are both revisions' predictions beside one device's runs:
// a row per revision, or why there are none.
type predictions struct {
	Rows []runsRow
	Note string
}

// runsDevice is one device of the two runs.
type runsDevice struct {
	Device  int
	Peaks   []runsRow // the allocated and the reserved peak
	Start   runsStart
	Groups  []groupRow // unchanged, only in A, only in B, grown, shrunk
	Changes []changeRow
	Windows []windowRow
}

// runsRow is a figure of each run and B less A, with the byte counts for
// the page's data attributes.
type runsRow struct {
	Key, Name, A, B, Delta     string
	ABytes, BBytes, DeltaBytes int64
}

// runsStart is whether both runs began with the same allocated bytes.
type runsStart struct {
	Equal bool
	Text  string
}

// groupRow is one kind of change among the blocks live at the peaks.
type groupRow struct {
	Key, Name string
	Count     int
	Bytes     string
}

// changeRow is one of the largest changes, by top frame.
type changeRow struct {
	Group, Frame, A, B string
}

// windowRow is a window of each run with the same label.
type windowRow struct {
	Label, A, B, Delta string
}

// compareRuns sets run b beside run a, each device of a beside the same
// device of b.
func compareRuns(a, b *snapshotResult) *runsView {
	v := &runsView{FileA: a.File, FileB: b.File}
	for _, c := range measure.CompareRuns(a.Devices, b.Devices) {
		v.Devices = append(v.Devices, runsDeviceOf(c))
	}
	return v
}

func runsDeviceOf(c measure.DeviceComparison) runsDevice {
	d := runsDevice{Device: c.Device}
	d.Peaks = []runsRow{
		{Key: "allocated", Name: "allocated peak", A: bytesOf(c.A.PeakBytes), B: bytesOf(c.B.PeakBytes),
			Delta: estimator.Bytes(c.PeakDeltaBytes).DeltaString(), ABytes: c.A.PeakBytes, BBytes: c.B.PeakBytes, DeltaBytes: c.PeakDeltaBytes},
		{Key: "reserved", Name: "reserved peak", A: bytesOf(c.A.ReservedPeakBytes), B: bytesOf(c.B.ReservedPeakBytes),
			Delta: estimator.Bytes(c.ReservedDeltaBytes).DeltaString(), ABytes: c.A.ReservedPeakBytes, BBytes: c.B.ReservedPeakBytes, DeltaBytes: c.ReservedDeltaBytes},
	}
	d.Start.Equal = c.EqualStart
	if c.EqualStart {
		d.Start.Text = "Both runs began with " + bytesOf(c.A.InitialBytes) + " allocated before the trace: the peaks' difference is the runs'."
	} else {
		d.Start.Text = "The runs began differently: " + bytesOf(c.A.InitialBytes) + " allocated before A's trace, " + bytesOf(c.B.InitialBytes) +
			" before B's; the peaks' difference includes that."
	}
	groups := []struct {
		key, name string
		g         measure.BlockGroup
		delta     bool
	}{
		{"unchanged", "unchanged", c.Unchanged, false},
		{"only-a", "only in A", c.OnlyA, false},
		{"only-b", "only in B", c.OnlyB, false},
		{"grown", "grown", c.Grown, true},
		{"shrunk", "shrunk", c.Shrunk, true},
	}
	for _, g := range groups {
		bytes := bytesOf(g.g.Bytes)
		if g.delta {
			bytes = estimator.Bytes(g.g.Bytes).DeltaString()
		}
		d.Groups = append(d.Groups, groupRow{Key: g.key, Name: g.name, Count: g.g.Count, Bytes: bytes})
		for k, ch := range g.g.Blocks {
			if k == changesShown {
				break
			}
			row := changeRow{Group: g.name, Frame: ch.Frame, A: "—", B: "—"}
			if row.Frame == "" {
				row.Frame = "(no frame)"
			}
			if g.key != "only-b" {
				row.A = estimator.Group(ch.ABytes)
			}
			if g.key != "only-a" {
				row.B = estimator.Group(ch.BBytes)
			}
			d.Changes = append(d.Changes, row)
		}
	}
	for _, w := range c.Windows {
		row := windowRow{Label: w.Label, A: "—", B: "—", Delta: "—"}
		if w.A != nil {
			row.A = bytesOf(w.A.PeakBytes)
		}
		if w.B != nil {
			row.B = bytesOf(w.B.PeakBytes)
		}
		if w.A != nil && w.B != nil {
			row.Delta = estimator.Bytes(w.DeltaBytes).DeltaString()
		}
		d.Windows = append(d.Windows, row)
	}
	return d
}

// predictionsFor are each device's predictions for cfg, made again only
// when the config, its readiness or the runs changed.
func (v *runsView) predictionsFor(a, b *snapshotResult, cfg estimator.Config, ready bool) []predictions {
	if f := &v.predFor; f.ok && f.ready == ready && f.cfg.Equal(cfg) && len(v.preds) == len(v.Devices) {
		return v.preds
	}
	v.predFor = viewKey{ok: true, cfg: cfg.Clone(), ready: ready}
	v.preds = make([]predictions, len(v.Devices))
	for i, d := range v.Devices {
		v.preds[i] = predictionRows(cfg, ready, deviceOf(a, d.Device), deviceOf(b, d.Device))
	}
	return v.preds
}

// deviceOf is a run's report of device d (nil: the run has none).
func deviceOf(r *snapshotResult, d int) *measure.DeviceReport {
	if r == nil {
		return nil
	}
	for i := range r.Devices {
		if r.Devices[i].Device == d {
			return &r.Devices[i]
		}
	}
	return nil
}

// predictionRows are both revisions' predictions for the piece their plan
// runs (measure.Compare) beside each run's peak, as the command line's
// -config sets them: per revision, the prediction for A's and B's
// measurement and measured less predicted for each.
func predictionRows(cfg estimator.Config, ready bool, a, b *measure.DeviceReport) predictions {
	switch {
	case !ready:
		return predictions{Note: "The config above does not price yet, so no prediction is set beside the runs."}
	case a == nil || b == nil || !a.History || !b.History:
		return predictions{Note: "A run without a trace on this device has no peak to set a prediction beside."}
	}
	ma, err := measure.Compare(cfg, a)
	if err != nil {
		return predictions{Note: "No prediction beside the runs: " + err.Error() + "."}
	}
	mb, err := measure.Compare(cfg, b)
	if err != nil {
		return predictions{Note: "No prediction beside the runs: " + err.Error() + "."}
	}
	var out predictions
	for k := range ma {
		pa, pb := ma[k], mb[k]
		out.Rows = append(out.Rows, runsRow{
			Key: "predicted-" + pa.Revision, Name: pa.Revision + " predicts (" + estimator.Group(pa.Rows) + " rows)",
			A: bytesOf(pa.PredictedBytes), B: bytesOf(pb.PredictedBytes),
			Delta:  "measured − predicted: A " + estimator.Bytes(pa.ResidualBytes).DeltaString() + ", B " + estimator.Bytes(pb.ResidualBytes).DeltaString(),
			ABytes: pa.PredictedBytes, BBytes: pb.PredictedBytes, DeltaBytes: pb.PredictedBytes - pa.PredictedBytes,
		})
	}
	return out
}

// bytesOf writes a byte count as the comparison does: the exact figure
// and GiB.
func bytesOf(b int64) string { return estimator.Bytes(b).String() }

// countOf writes a block count.
func countOf(n int) string { return estimator.Group(int64(n)) }

// deviceName is a device as the panel names it.
func deviceName(d int) string { return "cuda:" + strconv.Itoa(d) }
