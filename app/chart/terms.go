package chart

import (
	"image/color"

	"gonum.org/v1/plot/vg"

	"headroom/estimator"
)

// A config's terms on the chart: a term placed in a stage is in that
// stage's line already (the estimator's WholeStages include it), a
// retained term in the retained line (WholeRetained); a term of place
// stage is a stage of its own and gets a line of its own, named after it
// in the legend, read from WholeTermStages. Like the built-in stage lines
// it is the candidate's; a stage term only the baseline holds is drawn
// from the baseline, dashed, its label "name (baseline)" (or the
// baseline's own name when two setups are compared).

// colTerm are the term stages' colours, taken in turn.
var colTerm = []color.Color{
	rgb(0x00, 0x9E, 0x73), rgb(0xE6, 0x9F, 0x00), rgb(0x6A, 0x3D, 0x9A), rgb(0xB1, 0x59, 0x28),
	rgb(0x1F, 0x78, 0xB4), rgb(0xE3, 0x1A, 0x1C), rgb(0x33, 0xA0, 0x2C), rgb(0x99, 0x99, 0x33),
}

// termLines are the lines of the terms of place stage of in.
func termLines(in *Input) []lineSpec {
	var specs []lineSpec
	for i, t := range in.Terms {
		if t.Place != "stage" || i >= estimator.MaxTerms {
			continue
		}
		rev, label, dashes := estimator.CandidateRev, t.Name, []vg.Length{6, 2}
		if t.Revision == "baseline" {
			rev, label, dashes = estimator.BaselineRev, t.Name+" ("+in.names()[0]+")", []vg.Length{2, 2}
		}
		col := colTerm[len(specs)%len(colTerm)]
		specs = append(specs, lineSpec{label, lineStyle(col, 1.3, dashes...),
			revValue(rev, func(r *estimator.PointRevision) int64 { return r.WholeTermStages[i] })})
	}
	return specs
}
