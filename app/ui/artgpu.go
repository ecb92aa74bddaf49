package ui

import (
	"strings"

	"headroom/estimator"
)

// ART's GPU placement path (docs/model.md §15) on the page: its switch
// beside the Trainer menu, and the decision panel's line on where the
// backward state and the outputs live.

// gpuPathKey is the path switch's field (art.gpu_placement).
const gpuPathKey = "gpu_placement"

// gpuPathDoc is the line under the path switch: when ART takes which.
const gpuPathDoc = "ART takes its estimator path off CUDA (what its CPU tests check) and this placement path on every CUDA device: " +
	"it may keep the backward state on the host or replay it, and put the outputs on the host, when the GPU alone does not fit " +
	"(read under ART's code only)."

// placementLine is the decision panel's sentence on a GPU-path plan: the
// placement and why, its GPU and host bytes, and its units.
func placementLine(p *estimator.PlacementResult) string {
	var b strings.Builder
	b.WriteString(p.Why + ". GPU " + p.GPURequiredBytes.String() + "; host " + p.HostRequiredBytes.String() +
		" of " + p.HostAvailableBytes.String() + ". Units:")
	for i, u := range p.Units {
		if i > 0 {
			b.WriteString(";")
		}
		b.WriteString(" " + estimator.Group(u.Children) + " x " + estimator.Group(u.Rows) + " rows (peak " +
			u.PeakBytes.String() + ", retained " + u.RetainedBytes.String() + ", outputs " + u.OutputBytes.String() +
			", replay " + u.ReplayBytes.String() + ")")
	}
	return b.String() + "."
}
