package estimator

// The GPU placement ladder's arithmetic (docs/model.md §15.2-§15.4),
// quoted from ART's _graph_memory_units, _graph_memory_candidates,
// _admit_graph_memory and _memory_policy.placement_cost. It works on
// units given as numbers, so ART's own unit tests, which give their costs
// as numbers, are tests of it (art_gpu_figures_test.go).

// gpuUnit is one unit of a plan (ART's ForwardMemoryCost): a child, or
// the children of a rung that are priced alike, Count of them. Persistent
// and Staging are charged once per plan (the first unit that trains).
type gpuUnit struct {
	Count        int64
	Peak         int64 // max(price, retained + transient)
	Retained     int64 // max(outputs, the child's retained price)
	Output       int64
	Replay       int64 // host bytes of the replay snapshot (grad only)
	Backward     bool  // the unit trains
	CorrectionWS int64 // the price again under an "always" correction
	Staged       int64 // the staged-gradient credit
	// CPUResident is what an offloaded unit still holds on the GPU beyond
	// its outputs (ART's context-parallel residual); 0 at CP 1.
	CPUResident int64
	// Opt are the unit's placement options.
	Opt gpuOptions
}

// gpuPlacementIn is what the ladder places: the units, the plan's
// once-only charges (persistent: the LoRA version capture; staging: the
// gradient staging reserve), what earlier forwards still hold for their
// backward (priorStaging, priorWorkspace: 0 for a config, which has no
// earlier forward), the split floor already made safe, and the host
// budget.
type gpuPlacementIn struct {
	units                        []gpuUnit
	persistent, staging          int64
	priorStaging, priorWorkspace int64
	floor, hostAvail             int64
}

// gpuOptions are a request's placement options (ART's resolved
// ForwardOptions, §15.6's codes).
type gpuOptions struct {
	state, out            int64
	allowCPU, allowReplay bool
}

// gpuCandidate is one candidate of the ladder as tried: the placement it
// asked for, the one each unit took (its options may force another), and
// its GPU and host requirements.
type gpuCandidate struct {
	state, out       int64 // asked for
	selState, selOut int64 // taken
	gpu, host        int64
	gpuFits, hostFit bool
}

// gpuCandidateOrder is ART's order when no timing samples exist (§15.3):
// the GPU first, outputs on the model then on the host; then the host
// offload before replay, because missing samples make ART prefer "cpu".
var gpuCandidateOrder = [6][2]int64{
	{gpuStateGPU, gpuOutModel}, {gpuStateGPU, gpuOutCPU},
	{gpuStateCPU, gpuOutModel}, {gpuStateCPU, gpuOutCPU},
	{gpuStateReplay, gpuOutModel}, {gpuStateReplay, gpuOutCPU},
}

// selectPlacement is the state and device a unit takes under candidate
// (state, out): a forced option wins; auto falls from replay to cpu to gpu
// as the options forbid (quoted, _admit_graph_memory).
func (o *gpuOptions) selectPlacement(state, out int64) (int64, int64) {
	s := o.state
	if s == gpuStateAuto {
		s = state
		if s == gpuStateReplay && !o.allowReplay {
			s = gpuStateCPU
		}
		if s == gpuStateCPU && !o.allowCPU {
			s = gpuStateGPU
		}
	}
	d := o.out
	if d == gpuOutAuto {
		d = out
	}
	return s, d
}

// unitPlacement is placement_cost of one unit, without its persistent
// and staging bytes: the GPU bytes it keeps, the host bytes, and the
// workspace it needs beside everything kept.
func unitPlacement(c *calc, u *gpuUnit, state, out int64) (gpu, host, workspace int64) {
	outCPU := out == gpuOutCPU
	var physical int64
	if !u.Backward {
		if !outCPU {
			gpu = u.Output
		} else {
			host = u.Output
		}
		physical = gpu
	} else {
		switch state {
		case gpuStateGPU:
			physical = u.Retained
		case gpuStateCPU:
			physical = max(u.Output, u.CPUResident)
		}
		gpu = physical
		if !outCPU {
			gpu = c.add(gpu, u.Output, whatArtTotal)
		}
		host = u.Replay
		if outCPU {
			host = c.add(host, u.Output, whatArtTotal)
		}
		if state == gpuStateCPU {
			host = c.add(host, u.Retained-u.Output, whatArtTotal)
		}
	}
	workspace = max(u.Peak-physical-u.Staged, u.CorrectionWS)
	return gpu, host, workspace
}

// placeUnits prices each candidate in ART's order until one fits (§15.4):
// required = priorStaging + persistent + staging + the units' GPU bytes +
// max(priorWorkspace, the largest workspace), at least the split floor; it
// fits when fits(required) (required <= the available bytes) and the host
// bytes <= hostAvail. It returns how many candidates it tried (into out)
// and the index of the one that fits, or -1 (ART then reports the last).
func placeUnits(c *calc, in *gpuPlacementIn, fits func(int64) bool, out *[6]gpuCandidate) (tried int, chosen int) {
	for i, cand := range gpuCandidateOrder {
		gpu := c.add(in.priorStaging, c.add(in.persistent, in.staging, whatArtTotal), whatArtTotal)
		host, ws := int64(0), in.priorWorkspace
		var st, dev int64
		for j := range in.units {
			u := &in.units[j]
			s, d := u.Opt.selectPlacement(cand[0], cand[1])
			if j == 0 {
				st, dev = s, d
			}
			g, h, w := unitPlacement(c, u, s, d)
			gpu = c.add(gpu, c.mul(g, u.Count, whatArtTotal), whatArtTotal)
			host = c.add(host, c.mul(h, u.Count, whatArtTotal), whatArtTotal)
			ws = max(ws, w)
		}
		gpu = max(c.add(gpu, ws, whatArtTotal), in.floor)
		out[i] = gpuCandidate{state: cand[0], out: cand[1], selState: st, selOut: dev, gpu: gpu, host: host,
			gpuFits: fits(gpu), hostFit: host <= in.hostAvail}
		if out[i].gpuFits && out[i].hostFit {
			return i + 1, i
		}
	}
	return len(gpuCandidateOrder), -1
}
