package estimator

import "fmt"

// The GPU placement path's result (docs/model.md §15.7): the placement a
// plan took, each candidate's GPU and host bytes, and the units.

// Placement is where the GPU placement path put a plan: the backward
// state's place and the outputs' device. PlacementNone is no placement
// (the estimator path, or a refusal).
type Placement uint8

// PlacementNone is the zero Placement.
const PlacementNone Placement = 0

// newPlacement codes a taken (state, device) pair.
func newPlacement(state, out int64) Placement { return Placement(1 + state*3 + out) }

// BackwardState is "gpu", "cpu" or "replay"; "" for PlacementNone.
func (p Placement) BackwardState() string {
	if p == PlacementNone {
		return ""
	}
	return gpuStateNames[(p-1)/3]
}

// OutputDevice is "model" or "cpu"; "" for PlacementNone.
func (p Placement) OutputDevice() string {
	if p == PlacementNone {
		return ""
	}
	return gpuOutNames[(p-1)%3]
}

// OutputsOnHost, Offloaded and Replayed say where a placed plan keeps its
// outputs and its backward state.
func (p Placement) OutputsOnHost() bool { return p != PlacementNone && p.OutputDevice() == "cpu" }
func (p Placement) Offloaded() bool     { return p != PlacementNone && p.BackwardState() == "cpu" }
func (p Placement) Replayed() bool      { return p != PlacementNone && p.BackwardState() == "replay" }

// ArtSources names the stored copies of ART's code the GPU path follows
// (docs/model.md §13.12 and §15).
const ArtSources = "OpenPipe/ART _impl.py copy 70866802333 (I308: _find_admissible_forward's GPU branch, _graph_memory_units, _graph_memory_candidates, _admit_graph_memory), _memory_policy.py copy 71591661484 (placement_cost, host_memory_budget), _micro_batch_planner.py copy 71421360072 (P88), _memory.py copy 70906049816 (M95)"

// PlacementResult is the GPU path's block of an Outcome.
type PlacementResult struct {
	Path   string `json:"path"`   // "gpu"
	Source string `json:"source"` // ArtSources
	// BackwardState and OutputDevice are the placement taken, "" when
	// refused; Why says where they live and why.
	BackwardState string `json:"backward_state"`
	OutputDevice  string `json:"output_device"`
	Why           string `json:"why"`
	// GPURequiredBytes and HostRequiredBytes are the taken candidate's (the
	// last tried when refused); HostAvailableBytes is ART's host budget.
	GPURequiredBytes   Bytes `json:"gpu_required_bytes"`
	HostRequiredBytes  Bytes `json:"host_required_bytes"`
	HostAvailableBytes Bytes `json:"host_available_bytes"`
	// PersistentBytes (the LoRA version capture) and StagingBytes (the
	// gradient staging reserve) are charged once per plan.
	PersistentBytes Bytes                `json:"persistent_bytes"`
	StagingBytes    Bytes                `json:"staging_bytes"`
	SplitFloorBytes Bytes                `json:"split_floor_bytes"`
	Candidates      []PlacementCandidate `json:"candidates"`
	Units           []PlacementUnit      `json:"units"`
}

// PlacementCandidate is one candidate of the ladder as tried.
type PlacementCandidate struct {
	BackwardState string `json:"backward_state"` // asked for
	OutputDevice  string `json:"output_device"`
	TakenState    string `json:"taken_backward_state"` // after the options
	TakenDevice   string `json:"taken_output_device"`
	GPUBytes      Bytes  `json:"gpu_bytes"`
	HostBytes     Bytes  `json:"host_bytes"`
	GPUFits       bool   `json:"gpu_fits"`
	HostFits      bool   `json:"host_fits"`
	Chosen        bool   `json:"chosen"`
}

// PlacementUnit is Children children of Rows rows priced alike.
type PlacementUnit struct {
	Children                 int64 `json:"children"`
	Rows                     int64 `json:"rows"`
	PeakBytes                Bytes `json:"peak_bytes"`
	RetainedBytes            Bytes `json:"retained_bytes"`
	OutputBytes              Bytes `json:"output_bytes"`
	ReplayBytes              Bytes `json:"replay_bytes"`
	StagedGradientBytes      Bytes `json:"staged_gradient_bytes"`
	CorrectionWorkspaceBytes Bytes `json:"correction_workspace_bytes"`
}

// gpuDecorate adds the GPU path's placement to artOutcome's Outcome of
// plan pl (gpuDecide's, whose gpuPlan is e.art.gp) and says why.
func (e *evaluator) gpuDecorate(o *Outcome, pl plan, avail int64) {
	r, gp := e.r, &e.art.gp
	pr := &PlacementResult{Path: "gpu", Source: ArtSources,
		GPURequiredBytes: Bytes(gp.gpuRequired), HostRequiredBytes: Bytes(gp.hostReq), HostAvailableBytes: Bytes(gp.hostAvail),
		PersistentBytes: Bytes(gp.persistent), StagingBytes: Bytes(gp.staging), SplitFloorBytes: Bytes(gp.floor)}
	for i := 0; i < gp.tried; i++ {
		cd := &gp.cands[i]
		pr.Candidates = append(pr.Candidates, PlacementCandidate{
			BackwardState: gpuStateNames[cd.state], OutputDevice: gpuOutNames[cd.out],
			TakenState: gpuStateNames[cd.selState], TakenDevice: gpuOutNames[cd.selOut],
			GPUBytes: Bytes(cd.gpu), HostBytes: Bytes(cd.host), GPUFits: cd.gpuFits, HostFits: cd.hostFit, Chosen: i == gp.chosen})
	}
	for i := range gp.units {
		u := &gp.units[i]
		pr.Units = append(pr.Units, PlacementUnit{Children: u.Count, Rows: gp.rows[i], PeakBytes: Bytes(u.Peak),
			RetainedBytes: Bytes(u.Retained), OutputBytes: Bytes(u.Output), ReplayBytes: Bytes(u.Replay),
			StagedGradientBytes: Bytes(u.Staged), CorrectionWorkspaceBytes: Bytes(u.CorrectionWS)})
	}
	if pl.decision != Refuse {
		pr.BackwardState, pr.OutputDevice = pl.gpuPlace.BackwardState(), pl.gpuPlace.OutputDevice()
	}
	pr.Why = r.gpuWhy(pl, gp)
	o.Placement = pr
	o.Reason = r.gpuReason(pl, gp, avail, o.DominantStage)
}

// gpuWhy says where the backward state and the outputs live, and why.
func (r *Resolved) gpuWhy(pl plan, gp *gpuPlan) string {
	if pl.decision == Refuse {
		if pl.artWhy != artLadder && gp.chosen < 0 {
			return "no placement: ART's GPU path refuses before placing (" + artReasons[pl.artWhy][len(artRefusalPrefix)+2:] + ")"
		}
		return "no placement: every candidate, down to the backward state replayed and the outputs on the host, needs more GPU or host memory than there is"
	}
	if !r.Grad {
		where := "on the GPU"
		if pl.gpuPlace.OutputsOnHost() {
			where = "on the host"
		}
		return "no backward state (no gradients); the outputs stay " + where
	}
	state := map[string]string{
		"gpu":    "the backward state stays on the GPU",
		"cpu":    "the backward state is offloaded to the host (the outputs' storage stays on the GPU while the graph lives)",
		"replay": "the backward state is dropped and replayed at backward time (its inputs are snapshotted on the host)",
	}[pl.gpuPlace.BackwardState()]
	out := "the outputs stay on the GPU"
	if pl.gpuPlace.OutputsOnHost() {
		out = "the outputs are copied to the host"
	}
	why := "the first candidate, everything on the GPU, fits"
	if gp.chosen > 0 {
		prev := &gp.cands[gp.chosen-1]
		lack := "GPU"
		if prev.gpuFits {
			lack = "host"
		}
		why = fmt.Sprintf("the candidates before it need more %s memory than there is (the last of them %s on the GPU, %s on the host)",
			lack, Bytes(prev.gpu), Bytes(prev.host))
	}
	if r.art.gpu.state != gpuStateAuto {
		why = "art.backward_state forces it"
	}
	return state + "; " + out + ": " + why
}

// gpuReason is the Outcome's reason on the GPU path.
func (r *Resolved) gpuReason(pl plan, gp *gpuPlan, avail int64, dom string) string {
	need, have := Bytes(pl.required), Bytes(avail)
	place := fmt.Sprintf("backward state %s, outputs on %s", pl.gpuPlace.BackwardState(), pl.gpuPlace.OutputDevice())
	switch pl.decision {
	case Admit:
		return fmt.Sprintf("admitted whole on ART's GPU path (%s): it needs %s on the GPU of the %s available and %s on the host of %s; the alternative that sets the price is %s",
			place, need, have, Bytes(gp.hostReq), Bytes(gp.hostAvail), dom)
	case Split:
		return fmt.Sprintf("split into %s children of at most %s rows on ART's GPU path (%s): the whole request fits no placement; the split needs %s on the GPU of the %s available and %s on the host of %s",
			Group(pl.k), Group(pl.largest), place, need, have, Bytes(gp.hostReq), Bytes(gp.hostAvail))
	}
	return artReasons[pl.artWhy]
}

// gpuLowerBound is the GPU path's lower_bound_bytes (docs/model.md
// §15.7): the finest rung's smallest GPU requirement over the six
// candidates, with the plan's once-only charges. It is a figure of the
// finest rung, not a floor under every rung: a coarser rung replayed can
// need less.
func (e *evaluator) gpuLowerBound(v variant) int64 {
	gp := &e.art.gpLower
	m := e.r.sequences()
	lo, hi := e.availLo, e.availHi // the bound is not a decision
	e.gpuRung(m, v, gp)
	e.availLo, e.availHi = lo, hi
	var cands [6]gpuCandidate
	placeUnits(&e.c, &gp.gpuPlacementIn, func(int64) bool { return false }, &cands)
	best := cands[0].gpu
	for _, cd := range cands[1:] {
		best = min(best, cd.gpu)
	}
	return best
}

// PlacementCounts counts the requests a revision's GPU placement path ran
// with the outputs on the host, the backward state offloaded, or it
// replayed (docs/model.md §15.7).
type PlacementCounts struct {
	OutputsOnHost int64 `json:"outputs_on_host"`
	Offloaded     int64 `json:"offloaded"`
	Replayed      int64 `json:"replayed"`
}

// countPlacements adds a line's count to the placements of each revision
// on the GPU path (the sums stay below the workload's request count).
func (p *Replayer) countPlacements(d *lineDecisions, count int64) {
	if !p.revs[0].r.art.gpu.on && !p.revs[1].r.art.gpu.on {
		return
	}
	if p.res.Placements == nil {
		p.res.Placements = &[2]PlacementCounts{}
	}
	for i, pl := range d.place {
		pc := &p.res.Placements[i]
		if pl.OutputsOnHost() {
			pc.OutputsOnHost += count
		}
		if pl.Offloaded() {
			pc.Offloaded += count
		}
		if pl.Replayed() {
			pc.Replayed += count
		}
	}
}
