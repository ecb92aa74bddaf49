package measure

import (
	"encoding/json"
	"fmt"

	"headroom/estimator"
)

// PlanComparison is one estimate_miss report: the plan ART admitted, its
// prediction and what it measured (docs/model.md §13.9). Children and
// PackedTokens are 0 when the report has no replay payload.
type PlanComparison struct {
	File               string   `json:"file"`
	ID                 string   `json:"id"`
	Phase              string   `json:"phase"`
	Children           int64    `json:"children"`
	PackedTokens       int64    `json:"packed_tokens"`
	PredictedPeakBytes int64    `json:"predicted_peak_bytes"`
	ObservedPeakBytes  int64    `json:"observed_peak_bytes"`
	AdmissionPeakBytes *int64   `json:"admission_peak_bytes"`
	AvailableBytes     *int64   `json:"available_bytes"`
	ErrorPct           *float64 `json:"error_pct"`
	// OutputBytes adds the estimates' arguments.output_bytes (the outputs
	// ART subtracts before learning a rate).
	OutputBytes int64 `json:"output_bytes"`
}

// Skipped is a report, or a comparison, that does not become what the
// import makes, and why.
type Skipped struct {
	File   string `json:"file"`
	ID     string `json:"id"`
	Event  string `json:"event"`
	Reason string `json:"reason"`
}

// LearnedProfile is the profile ART would hold after the imported points,
// in the shape of a config's profile_memory (docs/model.md §13.7).
type LearnedProfile struct {
	BytesPerToken                int64  `json:"bytes_per_token"`
	PackedTokens                 int64  `json:"packed_tokens"`
	RetainedComputeBytesPerToken *int64 `json:"retained_compute_bytes_per_token"`
}

// Add folds one measured piece into the profile (docs/model.md §13.7):
// its compute bytes (the peak less what the profile does not learn: the
// outputs, or the baseline in use) per packed token, rounded up, raise
// BytesPerToken, and its packed tokens PackedTokens. A piece with no
// compute bytes above that, or no tokens, learns a rate of 0.
func (p *LearnedProfile) Add(computeBytes, packedTokens int64) {
	rate := int64(0)
	if computeBytes > 0 && packedTokens > 0 {
		rate = computeBytes / packedTokens
		if computeBytes%packedTokens != 0 {
			rate++
		}
	}
	p.BytesPerToken = max(p.BytesPerToken, rate)
	p.PackedTokens = max(p.PackedTokens, packedTokens)
}

// ProfileMemory is the profile as a config's profile_memory JSON: the
// retained compute rate only when the profile has one (the report's JSON,
// PlannerImport's, writes it as null instead).
func (p *LearnedProfile) ProfileMemory() ([]byte, error) {
	return json.Marshal(struct {
		BytesPerToken                int64  `json:"bytes_per_token"`
		PackedTokens                 int64  `json:"packed_tokens"`
		RetainedComputeBytesPerToken *int64 `json:"retained_compute_bytes_per_token,omitempty"`
	}{p.BytesPerToken, p.PackedTokens, p.RetainedComputeBytesPerToken})
}

// PlannerImport is what a set of planner-miss reports gives.
type PlannerImport struct {
	Comparisons []PlanComparison          `json:"comparisons"`
	Points      []estimator.ObservedPoint `json:"observed"`
	Skipped     []Skipped                 `json:"skipped"`
	// Profile is nil when no report gives a point.
	Profile *LearnedProfile `json:"profile_memory"`
}

// maxProfileRate is profile_memory.bytes_per_token's upper bound (2^40).
const maxProfileRate = 1 << 40

// ImportReports validates every report (the first that breaks a rule
// refuses the import: a *ReportError) and turns them into comparisons,
// docs/model.md §12 points and a learned profile. inUse is the config's
// in_use_bytes, which a point adds to the observed peak (modelled as:
// the report's allocated baseline, which it does not record, equals
// in_use_bytes). A report whose id was already read is skipped.
//
// The learned profile keeps ART's two running maxima over the points:
// bytes_per_token = max of ceil((observed - outputs) / packed_tokens)
// (0 when the outputs exceed the observation) and packed_tokens = max of
// the points' packed tokens. Modelled as: ART keeps the rate as a float;
// here it is rounded up, so the profile never prices a point below its
// measurement. retained_compute_bytes_per_token stays null (the reports
// do not measure the forward-retained compute), and the warm fields and
// split floors are left out (no report here is a caller-phase window of
// one child).
func ImportReports(files []string, raws [][]byte, inUse int64) (*PlannerImport, error) {
	imp := &PlannerImport{Comparisons: []PlanComparison{}, Points: []estimator.ObservedPoint{}, Skipped: []Skipped{}}
	seen := map[string]string{}
	var prof LearnedProfile
	for i, raw := range raws {
		r, err := ParseReport(files[i], raw)
		if err != nil {
			return nil, err
		}
		skip := func(reason string) {
			imp.Skipped = append(imp.Skipped, Skipped{File: r.File, ID: r.ID, Event: r.Event, Reason: reason})
		}
		if first, dup := seen[r.ID]; dup {
			skip("the same report as " + first)
			continue
		}
		seen[r.ID] = r.File
		switch {
		case r.Event != "estimate_miss":
			skip(notComparison(r.Event))
			continue
		case r.Observed == nil:
			skip("no integer observed_peak_bytes")
			continue
		}
		c := PlanComparison{File: r.File, ID: r.ID, Phase: r.Phase, PredictedPeakBytes: *r.Predicted,
			ObservedPeakBytes: *r.Observed, AdmissionPeakBytes: r.Admission, ErrorPct: r.ErrorPct}
		if err := r.readReplay(&c); err != nil {
			return nil, err
		}
		imp.Comparisons = append(imp.Comparisons, c)
		switch {
		case r.replay == nil:
			skip("not an observed point: the report has no replay payload, so its rows are unknown")
			continue
		case c.Children != 1:
			skip(fmt.Sprintf("not an observed point: a split plan of %d children (a point is one forward of one piece)", c.Children))
			continue
		case c.Phase != "forward":
			skip(fmt.Sprintf("not an observed point: a %q window includes the caller's loss and backward", c.Phase))
			continue
		case c.PackedTokens < 1 || c.PackedTokens > estimator.MaxObservedRows:
			skip(fmt.Sprintf("not an observed point: packed_tokens %d outside 1..%d", c.PackedTokens, int64(estimator.MaxObservedRows)))
			continue
		}
		peak, ok := estimator.CheckedAdd(c.ObservedPeakBytes, inUse)
		if !ok || peak < 1 || peak > estimator.MaxObservedPeakBytes {
			skip(fmt.Sprintf("not an observed point: observed + in_use_bytes outside 1..%d", int64(estimator.MaxObservedPeakBytes)))
			continue
		}
		imp.Points = append(imp.Points, estimator.ObservedPoint{Rows: c.PackedTokens, PeakBytes: peak, Label: r.ID[:8] + " forward"})
		prof.Add(c.ObservedPeakBytes-c.OutputBytes, c.PackedTokens)
	}
	if len(imp.Points) > estimator.MaxObserved {
		return nil, fmt.Errorf("%d observed points: a config holds at most %d", len(imp.Points), estimator.MaxObserved)
	}
	if len(imp.Points) > 0 {
		if prof.BytesPerToken > maxProfileRate {
			return nil, fmt.Errorf("learned bytes_per_token %d exceeds profile_memory's range 0..%d", prof.BytesPerToken, int64(maxProfileRate))
		}
		imp.Profile = &prof
	}
	return imp, nil
}

func notComparison(event string) string {
	switch event {
	case "oom":
		return "an OOM: its partial peak is not a completed measurement"
	case "admission_refused", "planning_error":
		return "a planning failure (" + event + "): nothing ran, nothing was measured"
	}
	return "event " + event + " is not an estimate_miss"
}

// readReplay fills the comparison's plan facts from the replay payload;
// a payload of the wrong shape refuses the report.
func (r *Report) readReplay(c *PlanComparison) error {
	if r.replay == nil {
		return nil
	}
	bad := func(what string) error {
		return &ReportError{File: r.File, Rule: "invalid replay payload: " + what}
	}
	p := r.replay.obj
	if idx, ok := p["subforward_request_indices"]; ok {
		if idx.kind != jArray {
			return bad("subforward_request_indices must be a list")
		}
		c.Children = int64(len(idx.arr))
	}
	if plan, ok := p["plan"]; ok && plan.kind == jObject {
		if pt, ok := plan.obj["packed_tokens"]; ok {
			n, ok := int64Of(pt)
			if !ok || n < 0 {
				return bad("plan.packed_tokens must be an integer >= 0")
			}
			c.PackedTokens = n
		}
	}
	if av, ok := p["available_bytes"]; ok && av.kind != jNull {
		n, ok := int64Of(av)
		if !ok {
			return bad("available_bytes must be an integer")
		}
		c.AvailableBytes = &n
	}
	if mr, ok := p["memory_replay"]; ok && mr.kind == jObject {
		if est, ok := mr.obj["estimates"]; ok && est.kind == jArray {
			for i, e := range est.arr {
				if e.kind != jObject {
					return bad(fmt.Sprintf("memory_replay.estimates[%d] must be an object", i))
				}
				args, ok := e.obj["arguments"]
				if !ok || args.kind != jObject {
					continue
				}
				if ob, ok := args.obj["output_bytes"]; ok {
					n, ok := int64Of(ob)
					if !ok || n < 0 {
						return bad(fmt.Sprintf("memory_replay.estimates[%d].arguments.output_bytes must be an integer >= 0", i))
					}
					var fit bool
					if c.OutputBytes, fit = estimator.CheckedAdd(c.OutputBytes, n); !fit {
						return bad("the output bytes overflow int64")
					}
				}
			}
		}
	}
	return nil
}
