package estimator

import (
	"fmt"
	"testing"
)

// The figures ART's own unit tests assert for its GPU placement path, each
// test named after ART's. ART's tests give their costs as numbers (a
// monkeypatched _plan_cost of 100 peak and 80 retained bytes a request, 10
// bytes of outputs a request); these give placeUnits the same numbers.
// Copies followed: test_trainer_rank_memory_admission.py as stored in copy
// 70996968600 (27,242 characters). Copy 69155954370 (21,248 characters)
// is an older version of the same file: it agrees on every figure both
// have but one, test_correction_metadata_and_explicit_prepass_are_budgeted,
// which asserts 6 x 12 = 72 bytes of correction state with the
// corrections disabled, where I308's _correction_state_bytes returns 0
// (its early return on no corrections) and the newer copy asserts 0: the
// old test predates that return, and the code wins. test_memory_policy.py
// in copy 69166885936, whose
// choose_memory_placement is absent from the _memory_policy.py copy the
// profile follows (71591661484, where _admit_graph_memory runs the same
// candidate loop: its figures are ported as that loop's);
// test_cpu_offload_residency.py in copy 69269327684.

// gpuTestUnit is one of ART's test requests: peak 100 x n, retained 80 x
// n, outputs 10 x n for a unit of n requests, as its fixture prices them.
func gpuTestUnit(n, count int64, opt gpuOptions) gpuUnit {
	return gpuUnit{Count: count, Peak: 100 * n, Retained: 80 * n, Output: 10 * n, Replay: 1, Backward: true, Opt: opt}
}

// artDefaults are ART's ResolvedForwardOptions defaults.
var artDefaults = gpuOptions{state: gpuStateAuto, out: gpuOutModel, allowCPU: true, allowReplay: true}

// forcedReplay are options that force the replay backward state with the
// outputs on the CPU, as several of ART's placement tests ask.
var forcedReplay = gpuOptions{state: gpuStateReplay, out: gpuOutCPU, allowCPU: true, allowReplay: true}

// place runs the ladder's loop with GPU bytes avail and host bytes host.
func place(in gpuPlacementIn, avail int64) (cands [6]gpuCandidate, chosen int) {
	var c calc
	_, chosen = placeUnits(&c, &in, func(x int64) bool { return x <= avail }, &cands)
	return cands, chosen
}

func placed(t *testing.T, name string, cands [6]gpuCandidate, chosen int, state, out string, required int64) {
	t.Helper()
	if chosen < 0 {
		t.Errorf("%s: nothing fits, want %s/%s at %d", name, state, out, required)
		return
	}
	cd := cands[chosen]
	if got := gpuStateNames[cd.selState] + "/" + gpuOutNames[cd.selOut]; got != state+"/"+out || cd.gpu != required {
		t.Errorf("%s: %s at %d, want %s/%s at %d", name, got, cd.gpu, state, out, required)
	}
}

func TestCompleteRootCanSplitAndReplayWhereGpuRetentionRefuses(t *testing.T) {
	const avail, host = 250, 1_000_000
	whole := gpuPlacementIn{units: []gpuUnit{gpuTestUnit(4, 1, artDefaults)}, hostAvail: host}
	if _, ch := place(whole, avail); ch >= 0 {
		t.Errorf("the whole request of 4 fits; ART splits it")
	}
	two := gpuPlacementIn{units: []gpuUnit{gpuTestUnit(2, 2, artDefaults)}, hostAvail: host}
	cands, ch := place(two, avail)
	placed(t, "2 children", cands, ch, "replay", "model", 240)
	forced := gpuOptions{state: gpuStateGPU, out: gpuOutModel, allowCPU: true, allowReplay: true}
	for _, k := range []int64{1, 2, 4} {
		in := gpuPlacementIn{units: []gpuUnit{gpuTestUnit(4/k, k, forced)}, hostAvail: host}
		if _, ch := place(in, avail); ch >= 0 {
			t.Errorf("backward_state gpu admits the rung of %d children; ART refuses every rung", k)
		}
	}
}

func TestAutoCpuOutputsPreserveSavedStateWithoutReplay(t *testing.T) {
	opt := artDefaults
	opt.out = gpuOutAuto
	whole := gpuPlacementIn{units: []gpuUnit{gpuTestUnit(4, 1, opt)}, hostAvail: 1_000_000}
	if _, ch := place(whole, 250); ch >= 0 {
		t.Errorf("the whole request fits")
	}
	cands, ch := place(gpuPlacementIn{units: []gpuUnit{gpuTestUnit(2, 2, opt)}, hostAvail: 1_000_000}, 250)
	placed(t, "2 children", cands, ch, "cpu", "cpu", 220)
}

// Without timing samples ART prefers the host offload (the cases of its
// test whose source is "insufficient_samples"; the measured cases need
// forward and transfer timings, which a config does not have).
func TestMeasuredFallbackCostsChooseOnlyAfterGpuRefusal(t *testing.T) {
	opt := artDefaults
	opt.out = gpuOutCPU
	for _, name := range []string{"0.3-1-cpu", "0.0001-2-cpu"} {
		cands, ch := place(gpuPlacementIn{units: []gpuUnit{gpuTestUnit(1, 2, opt)}, hostAvail: 1_000_000}, 150)
		if ch < 0 || gpuStateNames[cands[ch].selState] != "cpu" {
			t.Errorf("%s: chosen %d, want the host offload", name, ch)
		}
	}
}

func TestGpuHeadroomDoesNotConsultTransferCosts(t *testing.T) {
	cands, ch := place(gpuPlacementIn{units: []gpuUnit{gpuTestUnit(1, 1, artDefaults)}, hostAvail: 1_000_000}, 250)
	if ch != 0 {
		t.Fatalf("chosen %d, want the first candidate", ch)
	}
	placed(t, "one request", cands, ch, "gpu", "model", 110)
}

func TestFallbackCostsPreserveForcedAndDisabledPolicies(t *testing.T) {
	for _, tc := range []struct {
		name string
		opt  gpuOptions
		want string
	}{
		{"backward_state cpu", gpuOptions{state: gpuStateCPU, out: gpuOutCPU, allowCPU: true, allowReplay: true}, "cpu"},
		{"backward_state replay", gpuOptions{state: gpuStateReplay, out: gpuOutCPU, allowCPU: true, allowReplay: true}, "replay"},
		{"allow_replay false", gpuOptions{state: gpuStateAuto, out: gpuOutCPU, allowCPU: true}, "cpu"},
		{"allow_cpu_offload false", gpuOptions{state: gpuStateAuto, out: gpuOutCPU, allowReplay: true}, "replay"},
	} {
		cands, ch := place(gpuPlacementIn{units: []gpuUnit{gpuTestUnit(1, 2, tc.opt)}, hostAvail: 1_000_000}, 150)
		if ch < 0 || gpuStateNames[cands[ch].selState] != tc.want {
			t.Errorf("%s: chosen %d, want %s", tc.name, ch, tc.want)
		}
	}
}

func TestMixedPoliciesSplitPhysicalGroupsAndShareEstimatorKeys(t *testing.T) {
	in := gpuPlacementIn{units: []gpuUnit{gpuTestUnit(1, 1, artDefaults), gpuTestUnit(1, 1, forcedReplay)}, hostAvail: 1_000_000}
	cands, ch := place(in, 250)
	if ch != 0 || !cands[0].gpuFits {
		t.Fatalf("chosen %d, want the first candidate", ch)
	}
	var got []string
	for _, u := range in.units {
		s, d := u.Opt.selectPlacement(cands[ch].state, cands[ch].out)
		got = append(got, gpuStateNames[s]+"/"+gpuOutNames[d])
	}
	if fmt.Sprint(got) != "[gpu/model replay/cpu]" || cands[0].gpu != 190 {
		t.Errorf("placements %v at %d, want [gpu/model replay/cpu] at 90 + 100", got, cands[0].gpu)
	}
}

func TestCpuShortageIsNotOverwrittenByFreshGpuCheck(t *testing.T) {
	cands, ch := place(gpuPlacementIn{units: []gpuUnit{gpuTestUnit(1, 1, artDefaults)}, hostAvail: 0}, 250)
	if ch >= 0 || !cands[5].gpuFits || cands[5].hostFit {
		t.Errorf("with no host memory: chosen %d, last candidate %+v; ART refuses on the host", ch, cands[5])
	}
}

func TestRetainedWeightVersionsStayInGpuBudgetEvenForReplay(t *testing.T) {
	cands, ch := place(gpuPlacementIn{units: []gpuUnit{gpuTestUnit(1, 1, forcedReplay)}, persistent: 200, hostAvail: 1_000_000}, 250)
	if ch >= 0 || cands[5].gpu != 300 {
		t.Errorf("chosen %d at %d, want a refusal at 300", ch, cands[5].gpu)
	}
}

func TestGradientTransactionReservesOneAggregatePerSlotAcrossChildren(t *testing.T) {
	cands, ch := place(gpuPlacementIn{units: []gpuUnit{gpuTestUnit(1, 4, forcedReplay)}, staging: 60, hostAvail: 1_000_000}, 250)
	placed(t, "4 children", cands, ch, "replay", "cpu", 160)
}

func TestStagingReserveHoldsTheWalksPricedAdapterGradients(t *testing.T) {
	for _, tc := range []struct {
		adapterGradient int64
		always          bool
		workspace       int64
	}{{0, false, 120}, {15, false, 105}, {40, false, 100}, {40, true, 200}} {
		u := gpuUnit{Count: 1, Peak: 200, Retained: 80, Output: 10, Replay: 1, Backward: true, Opt: artDefaults,
			Staged: min(tc.adapterGradient, 20)}
		if tc.always {
			u.CorrectionWS = 200
		}
		cands, ch := place(gpuPlacementIn{units: []gpuUnit{u}, staging: 60, hostAvail: 1 << 40}, 1<<40)
		placed(t, fmt.Sprintf("flat, %+v", tc), cands, ch, "gpu", "model", 80+10+60+tc.workspace)
		u.Count = 2
		cands, ch = place(gpuPlacementIn{units: []gpuUnit{u}, staging: 60, hostAvail: 1 << 40}, 1<<40)
		placed(t, fmt.Sprintf("split, %+v", tc), cands, ch, "gpu", "model", 2*(80+10)+60+tc.workspace)
	}
}

// The stored test gives two children different staleness (two captures);
// a config's request has one staleness, so one capture.
func TestSplitChildrenShareOneWeightCapturePerStaleness(t *testing.T) {
	for _, captures := range []int64{1, 2} {
		cands, ch := place(gpuPlacementIn{units: []gpuUnit{gpuTestUnit(1, 2, artDefaults)}, persistent: 40 * captures, hostAvail: 1 << 40}, 1<<40)
		placed(t, fmt.Sprintf("%d captures", captures), cands, ch, "gpu", "model", 2*(80+10)+40*captures+20)
	}
}

func TestPriorLargerReplayWorkspaceSurvivesNewSmallRootAdmission(t *testing.T) {
	cands, ch := place(gpuPlacementIn{units: []gpuUnit{gpuTestUnit(1, 1, forcedReplay)}, priorWorkspace: 300, hostAvail: 1_000_000}, 250)
	if ch >= 0 || cands[5].gpu != 300 {
		t.Errorf("chosen %d at %d, want a refusal at 300", ch, cands[5].gpu)
	}
}

func TestPriorCheckpointStagingDeduplicatesOldAndNewGraphTargets(t *testing.T) {
	for _, in := range []gpuPlacementIn{
		{priorStaging: 40, priorWorkspace: 150}, // a new slot: the old slot's staging is prior
		{staging: 40, priorWorkspace: 150},      // the old slot again: staged once, by this plan
	} {
		in.units, in.hostAvail = []gpuUnit{gpuTestUnit(1, 1, forcedReplay)}, 1_000_000
		cands, _ := place(in, 250)
		if cands[0].gpu != 190 {
			t.Errorf("%+v: %d, want 190", in, cands[0].gpu)
		}
	}
}

// Also test_correction_metadata_and_explicit_prepass_are_budgeted of the
// older copy, for its default and "always" figures (not its disabled one,
// above).
func TestCorrectionBudgetCoversCapturedStorageAndAliases(t *testing.T) {
	// Three rows, top-k 2, one label column, with gradients.
	for _, tc := range []struct {
		policy int64
		want   int64
	}{{gpuCorrectionWhenAvailable, 3*4 + 6*12}, {gpuCorrectionNone, 0}, {gpuCorrectionAlways, 3*8 + 6*16}} {
		var c calc
		if got := gpuCorrectionBytes(&c, 3, 2, 3, tc.policy); got != tc.want {
			t.Errorf("correction %s: %d, want %d", gpuCorrectionNames[tc.policy], got, tc.want)
		}
	}
	r := gpuTestResolved(t, `{"profile": "art", "art": {"gpu_placement": true}, "request": {"rows": 3, "sequence_rows": 3, "grad": false}}`)
	e := newEvaluator(&r)
	var gp gpuPlan
	e.gpuRung(1, r.candidateVariant(), &gp)
	if gp.units[0].Replay != 0 {
		t.Errorf("a no-grad unit's replay bytes: %d, want 0", gp.units[0].Replay)
	}
}

func TestTopKContextMustFitHostBudgetBeforeForward(t *testing.T) {
	for _, tc := range []struct {
		policy, want int64
	}{{gpuCorrectionNone, 0}, {gpuCorrectionWhenAvailable, 144}, {gpuCorrectionAlways, 192}} {
		var c calc
		corr := gpuCorrectionBytes(&c, 3, 4, 0, tc.policy)
		if corr != tc.want {
			t.Errorf("%s: correction %d, want %d", gpuCorrectionNames[tc.policy], corr, tc.want)
		}
		required := 1000 + gpuReplayFixedBytes + corr // 1000: any snapshot
		u := gpuTestUnit(1, 1, gpuOptions{state: gpuStateGPU, out: gpuOutModel, allowCPU: true, allowReplay: true})
		u.Replay = required
		if _, ch := place(gpuPlacementIn{units: []gpuUnit{u}, hostAvail: required - 1}, 1<<40); ch >= 0 {
			t.Errorf("%s: fits one byte short of the host bytes", gpuCorrectionNames[tc.policy])
		}
		if cands, ch := place(gpuPlacementIn{units: []gpuUnit{u}, hostAvail: required}, 1<<40); ch < 0 || cands[ch].host != required {
			t.Errorf("%s: host %d, want %d and a fit", gpuCorrectionNames[tc.policy], cands[max(ch, 0)].host, required)
		}
	}
}

func TestRegisteredHeadForwardAdmissionAndNativeBackward(t *testing.T) {
	for _, allocated := range []bool{false, true} {
		pending := int64(64) // the parameter's gradient does not exist yet
		if allocated {
			pending = 0
		}
		var c calc
		staging := gpuStagingBytes(&c, 64, pending)
		want := int64(64 * 3)
		if allocated {
			want = 64 * 2
		}
		if staging != want {
			t.Errorf("gradients allocated %v: staging %d, want %d", allocated, staging, want)
		}
		// The stored test's plan: one request, replayed, outputs on the host.
		u := gpuTestUnit(1, 1, gpuOptions{state: gpuStateReplay, out: gpuOutCPU, allowCPU: true, allowReplay: true})
		if _, ch := place(gpuPlacementIn{units: []gpuUnit{u}, staging: staging, hostAvail: 1 << 40}, 150); ch >= 0 {
			t.Errorf("allocated %v: fits at 150", allocated)
		}
		if cands, ch := place(gpuPlacementIn{units: []gpuUnit{u}, staging: staging, hostAvail: 1 << 40}, 100+staging); ch < 0 || cands[ch].gpu != 100+staging {
			t.Errorf("allocated %v: does not fit at exactly %d", allocated, 100+staging)
		}
	}
}

// placementCostRoot is test_memory_policy.py's ROOT: three units of peak
// 100, retained 80, outputs 10, replay 5.
func placementCostRoot(opt gpuOptions) gpuUnit {
	return gpuUnit{Count: 3, Peak: 100, Retained: 80, Output: 10, Replay: 5, Backward: true, Opt: opt}
}

func TestRootCostKeepsOutputsAndBackwardRestoreWorkspace(t *testing.T) {
	for _, tc := range []struct {
		state, out         int64
		gpu, cpu, retained int64
	}{
		{gpuStateGPU, gpuOutModel, 290, 15, 270},
		{gpuStateGPU, gpuOutCPU, 260, 45, 240},
		{gpuStateCPU, gpuOutModel, 150, 225, 60},
		{gpuStateCPU, gpuOutCPU, 120, 255, 30},
		{gpuStateReplay, gpuOutModel, 130, 15, 30},
		{gpuStateReplay, gpuOutCPU, 100, 45, 0},
	} {
		var c calc
		u := placementCostRoot(artDefaults)
		g, h, w := unitPlacement(&c, &u, tc.state, tc.out)
		if 3*g+w != tc.gpu || 3*h != tc.cpu || 3*g != tc.retained {
			t.Errorf("%s/%s: gpu %d, cpu %d, retained %d; want %d, %d, %d", gpuStateNames[tc.state], gpuOutNames[tc.out],
				3*g+w, 3*h, 3*g, tc.gpu, tc.cpu, tc.retained)
		}
	}
}

func TestStagedGradientsAccumulateAcrossChildrenBesideRestoreWorkspace(t *testing.T) {
	opt := gpuOptions{state: gpuStateCPU, out: gpuOutCPU, allowCPU: true, allowReplay: true}
	u := gpuUnit{Count: 3, Peak: 100, Retained: 80, Output: 10, Backward: true, Opt: opt}
	var c calc
	g, _, w := unitPlacement(&c, &u, gpuStateCPU, gpuOutCPU)
	if 3*g != 30 || w != 90 {
		t.Errorf("retained %d, workspace %d; want 30, 90", 3*g, w)
	}
	cands, _ := place(gpuPlacementIn{units: []gpuUnit{u}, staging: 3 * 30, hostAvail: 1 << 40}, 1<<40)
	if cands[0].gpu != 30+90+90 {
		t.Errorf("%d, want %d", cands[0].gpu, 30+90+90)
	}
}

func TestAdmissionPrefersRetentionAndAdmitsPreviouslyRefusedRoots(t *testing.T) {
	opt := artDefaults
	opt.out = gpuOutAuto
	for _, tc := range []struct {
		gpu, cpu   int64
		state, out string
	}{{290, 15, "gpu", "model"}, {259, 225, "cpu", "model"}, {130, 224, "replay", "model"}, {129, 45, "replay", "cpu"}} {
		cands, ch := place(gpuPlacementIn{units: []gpuUnit{placementCostRoot(opt)}, hostAvail: tc.cpu}, tc.gpu)
		if ch < 0 {
			t.Errorf("%d/%d: nothing fits, want %s/%s", tc.gpu, tc.cpu, tc.state, tc.out)
			continue
		}
		cd := cands[ch]
		if gpuStateNames[cd.selState] != tc.state || gpuOutNames[cd.selOut] != tc.out || cd.gpu > tc.gpu || cd.host > tc.cpu {
			t.Errorf("%d/%d: %+v, want %s/%s", tc.gpu, tc.cpu, cd, tc.state, tc.out)
		}
	}
}

func TestPolicyNeverAdmitsWithoutCpuCapacityOrOneChildWorkspace(t *testing.T) {
	opt := artDefaults
	opt.out = gpuOutAuto
	for _, tc := range [][2]int64{{99, 1000}, {259, 14}, {129, 44}} {
		if _, ch := place(gpuPlacementIn{units: []gpuUnit{placementCostRoot(opt)}, hostAvail: tc[1]}, tc[0]); ch >= 0 {
			t.Errorf("%v: admits", tc)
		}
	}
}

func TestDisableLevelsAndExplicitOutputOptOutAreAuthoritative(t *testing.T) {
	noCPU := gpuOptions{state: gpuStateAuto, out: gpuOutModel, allowReplay: true}
	if _, ch := place(gpuPlacementIn{units: []gpuUnit{placementCostRoot(noCPU)}, hostAvail: 1000}, 129); ch >= 0 {
		t.Errorf("allow_cpu_offload false, outputs on the model: admits at 129")
	}
	noReplay := gpuOptions{state: gpuStateAuto, out: gpuOutAuto, allowCPU: true}
	if _, ch := place(gpuPlacementIn{units: []gpuUnit{placementCostRoot(noReplay)}, hostAvail: 224}, 130); ch >= 0 {
		t.Errorf("allow_replay false: admits at 130/224")
	}
	cands, ch := place(gpuPlacementIn{units: []gpuUnit{placementCostRoot(forcedReplay)}, hostAvail: 1000}, 1000)
	placed(t, "forced replay", cands, ch, "replay", "cpu", 100)
}

func TestInvalidPolicyRaisesBeforeAdmission(t *testing.T) {
	for _, tc := range []struct{ art, field string }{
		{`"backward_state": 2, "allow_cpu_offload": false`, "art.backward_state"},
		{`"backward_state": 3, "allow_replay": false`, "art.backward_state"},
		{`"backward_state": 4`, "art.backward_state"},
		{`"output_device": 3`, "art.output_device"},
	} {
		_, err := DecodeConfig([]byte(`{"profile": "art", "art": {"gpu_placement": true, ` + tc.art + `}}`))
		if err == nil || FieldErrors(err)[0].Field != tc.field {
			t.Errorf("%s: %v, want an error naming %s", tc.art, err, tc.field)
		}
	}
}

func TestNoGradCpuOutputsReleaseGpuStorageWithoutReplay(t *testing.T) {
	opt := gpuOptions{state: gpuStateAuto, out: gpuOutAuto}
	u := gpuUnit{Count: 3, Peak: 100, Retained: 80, Output: 80, Opt: opt}
	cands, ch := place(gpuPlacementIn{units: []gpuUnit{u}, hostAvail: 240}, 100)
	placed(t, "no grad", cands, ch, "gpu", "cpu", 100)
	if ch >= 0 && cands[ch].host != 240 {
		t.Errorf("host %d, want 240", cands[ch].host)
	}
}

func TestCostIsIndependentOfChildExecutionOrder(t *testing.T) {
	a := placementCostRoot(artDefaults)
	b := gpuUnit{Count: 1, Peak: 300, Retained: 60, Output: 5, Replay: 10, Backward: true, Opt: artDefaults}
	for _, st := range []int64{gpuStateGPU, gpuStateCPU, gpuStateReplay} {
		o := gpuOptions{state: st, out: gpuOutCPU, allowCPU: true, allowReplay: true}
		a.Opt, b.Opt = o, o
		x, _ := place(gpuPlacementIn{units: []gpuUnit{a, b}, hostAvail: 1 << 40}, 1<<40)
		y, _ := place(gpuPlacementIn{units: []gpuUnit{b, a}, hostAvail: 1 << 40}, 1<<40)
		if x[0].gpu != y[0].gpu || x[0].host != y[0].host {
			t.Errorf("%s: %+v against %+v", gpuStateNames[st], x[0], y[0])
		}
	}
}

func TestCurrentProbabilityCorrectionReservesAForwardBesideOldGraphs(t *testing.T) {
	u := gpuUnit{Count: 3, Peak: 100, Retained: 80, Output: 10, Backward: true, CorrectionWS: 100, Opt: artDefaults}
	cands, _ := place(gpuPlacementIn{units: []gpuUnit{u}, hostAvail: 1 << 40}, 1<<40)
	if cands[0].gpu != 370 {
		t.Errorf("%d, want 370", cands[0].gpu)
	}
}

func TestPartialOffloadRetainsResidualForEveryCompleteRootChild(t *testing.T) {
	var c calc
	u := gpuUnit{Count: 3, Peak: 100, Retained: 80, Output: 10, Backward: true, CPUResident: 40}
	g, _, w := unitPlacement(&c, &u, gpuStateCPU, gpuOutCPU)
	if 3*g != 120 || 3*g+w != 180 {
		t.Errorf("cpu: retained %d, required %d; want 120, 180", 3*g, 3*g+w)
	}
	g, _, w = unitPlacement(&c, &u, gpuStateReplay, gpuOutCPU)
	if g != 0 || g+w != 100 {
		t.Errorf("replay: retained %d, required %d; want 0, 100", g, g+w)
	}
}

// The host budget tests build a host (1,024,000 bytes, 819,200 free) and
// three cgroups (limit, used): the mount (800,000, 100,000), the pod
// (500,000, 300,000) and the rank (400,000, 100,000). ART's budget is the
// smallest scope's.
func hostTestBudget(ranks int64, scopes [][2]int64) int64 {
	best := hostScopeBudget(1_024_000, 819_200, ranks)
	for _, s := range scopes {
		best = min(best, hostScopeBudget(s[0], s[0]-s[1], ranks))
	}
	return best
}

var hostTestScopes = [][2]int64{{800_000, 100_000}, {500_000, 300_000}, {400_000, 100_000}}

func TestSharedHostAndAncestorCgroupBudgets(t *testing.T) {
	if got := hostTestBudget(4, hostTestScopes); got != 37_500 {
		t.Errorf("4 ranks: %d, want 37,500", got)
	}
	if got := hostTestBudget(1, hostTestScopes); got != 4*37_500 {
		t.Errorf("1 rank: %d, want 150,000", got)
	}
}

func TestFreshUsageReducesAdditionalOffloadCredit(t *testing.T) {
	if got := hostTestBudget(2, hostTestScopes); got != 75_000 {
		t.Errorf("first: %d, want 75,000", got)
	}
	if got := hostTestBudget(2, [][2]int64{{800_000, 100_000}, {500_000, 400_000}, {400_000, 100_000}}); got != 25_000 {
		t.Errorf("second: %d, want 25,000", got)
	}
}

func TestTopologyCacheObservesMembershipAndMountChangesImmediately(t *testing.T) {
	moved := [][2]int64{{800_000, 100_000}, {500_000, 300_000}, {10_000, 0}}
	if got := hostTestBudget(4, moved); got != 2_250 {
		t.Errorf("moved: %d, want 2,250", got)
	}
	remounted := [][2]int64{{12_000, 2_000}}
	if got := hostTestBudget(4, remounted); got != 2_200 {
		t.Errorf("remounted: %d, want 2,200", got)
	}
}

func TestUnlimitedCgroupStillObeysHostAndParent(t *testing.T) {
	if got := hostTestBudget(2, [][2]int64{{500_000, 300_000}}); got != 75_000 {
		t.Errorf("%d, want 75,000", got)
	}
}

func TestUnknownHostBudgetFailsClosedAndEmptyScopesGrantNothing(t *testing.T) {
	if got := hostScopeBudget(0, 0, 1); got != 0 {
		t.Errorf("an unknown host: %d, want 0", got)
	}
}

// gpuTestResolved resolves a config for the GPU path's tests.
func gpuTestResolved(t *testing.T, js string) Resolved {
	t.Helper()
	c, err := DecodeConfig([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	r, err := c.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// test_placement_admission_with_runtime_facts_stays_incomplete (planner
// report tests, copy 70922467511): two trained requests of 65 and 33
// rows, flat with the state on the GPU or split with the state replayed
// and the outputs on the host; the GPU path's price fits, needs host
// bytes, and is not the estimator path's (_split_required_memory).
func TestPlacementAdmissionWithRuntimeFactsStaysIncomplete(t *testing.T) {
	for _, split := range []bool{false, true} {
		opts := `"backward_state": 1, "output_device": 1`
		k := int64(1)
		if split {
			opts, k = `"backward_state": 3, "output_device": 2`, 2
		}
		r := gpuTestResolved(t, `{"profile": "art", "art": {"gpu_placement": true, `+opts+`},
			"request": {"rows": 98, "sequence_rows": 65, "grad": true}, "budget": {"capacity_bytes": 1000000000000000}}`)
		e := newEvaluator(&r)
		v := r.candidateVariant()
		var gp gpuPlan
		e.gpuRung(k, v, &gp)
		unplaced := e.artRung(k, v, false).required
		if gp.chosen < 0 || gp.hostReq <= 0 || gp.gpuRequired == unplaced {
			t.Errorf("split %v: chosen %d, host %d, GPU %d against the estimator path's %d", split, gp.chosen, gp.hostReq, gp.gpuRequired, unplaced)
		}
	}
}

// test_native_admission_keeps_standalone_head_staging (copies 69078847274,
// 71583769532, 71127733201, which agree): a head of one FP32 parameter
// (4 bytes, no gradient yet) stages 2 x 4 + 4 = 12 bytes; with the state
// replayed and the outputs on the host the request needs 100 + 12 = 112
// bytes, one more than the 111 available.
func TestNativeAdmissionKeepsStandaloneHeadStaging(t *testing.T) {
	var c calc
	in := gpuPlacementIn{units: []gpuUnit{gpuTestUnit(1, 1, forcedReplay)}, staging: gpuStagingBytes(&c, 4, 4), hostAvail: 1 << 40}
	cands, ch := place(in, 111)
	if ch >= 0 || cands[5].gpu != 112 {
		t.Errorf("chosen %d at %d, want a refusal at 112", ch, cands[5].gpu)
	}
}

// test_sequential_gradient_publications_fit_original_admission_reserve
// (copy 69039174577, a GPU measurement): the staging reserve of one FP32
// parameter of 4 Mi elements is 3 times its bytes without a gradient, 2
// times with one.
func TestSequentialGradientPublicationsFitOriginalAdmissionReserve(t *testing.T) {
	const size = 4 * 1024 * 1024 * 4
	var c calc
	if got := gpuStagingBytes(&c, size, size); got != 3*size {
		t.Errorf("no gradient: %d, want %d", got, 3*size)
	}
	if got := gpuStagingBytes(&c, size, 0); got != 2*size {
		t.Errorf("with a gradient: %d, want %d", got, 2*size)
	}
}

// test_real_root_replay_with_cpu_outputs_fits_budget (copy 69039174577):
// four children replayed with their outputs on the host need one child's
// peak, below what keeping them on the GPU needs.
func TestRealRootReplayWithCpuOutputsFitsBudget(t *testing.T) {
	var c calc
	u := gpuUnit{Count: 4, Peak: 100, Retained: 80, Output: 10, Replay: 5, Backward: true}
	g, _, w := unitPlacement(&c, &u, gpuStateReplay, gpuOutCPU)
	replay := 4*g + w
	g, _, w = unitPlacement(&c, &u, gpuStateGPU, gpuOutModel)
	retained := 4*g + w
	if !(replay <= u.Peak && u.Peak < retained) {
		t.Errorf("replayed %d, peak %d, retained %d", replay, u.Peak, retained)
	}
}
