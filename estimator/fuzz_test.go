package estimator

import (
	"errors"
	"strconv"
	"strings"
	"testing"
)

// Fuzz targets: go test -fuzz FuzzDecodeConfig ./estimator/ (one target
// per run). Without -fuzz they run their seed corpora as tests.

// FuzzDecodeConfig: random bytes never panic; whatever decodes resolves,
// and writes back to JSON that decodes to the same config.
func FuzzDecodeConfig(f *testing.F) {
	// Every field of the registry at both ends of its range and one past,
	// and every term variable in every place: a plain go test runs them.
	for _, fd := range Fields() {
		for _, v := range []string{strconv.FormatInt(fd.Min, 10), strconv.FormatInt(fd.Max, 10), strconv.FormatInt(fd.Max+1, 10), "true", "null"} {
			f.Add(fieldSeed(fd.Path, v))
		}
	}
	for _, v := range TermVariables() {
		for _, p := range TermPlaces {
			f.Add([]byte(`{"terms": [{"name": "t", "place": "` + p + `", "bytes": "` + v + ` * 2"}]}`))
		}
	}
	f.Add([]byte(`{}`))
	f.Add(MarshalConfig(Default()))
	f.Add([]byte(`{"request": {"rows": 1000, "projected_rows": 10, "target_rows": null, "outputs": {"topk": 5, "logits": true}}}`))
	f.Add([]byte(`{"budget": {"capacity_bytes": 1125899906842624, "in_use_bytes": 1125899906842624, "retained_per_row_bytes": 0}}`))
	f.Add([]byte(`{"fc2": {"input_width": 1048576, "output_width": 1, "dtype_bytes": 8, "expert_parallel": 1024}, "allocator_round_bytes": 1073741824}`))
	f.Add([]byte(`{"changes": {"head_eager_workspace": false, "fc2_known_storage": true, "gdn_early_release": false}}`))
	f.Add([]byte(`{"request": {"rows": 1e30}}`))
	f.Add([]byte(`{"request": {"rows": -0}}`))
	f.Add([]byte(`{"model": {"vocab_size": 9223372036854775807}}`))
	f.Add([]byte(`{"model": {"architectures": ["DeepseekV3ForCausalLM"], "num_attention_heads": 128, "n_routed_experts": 256, "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128, "intermediate_size": 18432, "first_k_dense_replace": 3, "q_lora_rank": 1536}, "fc2": {"expert_parallel": 32}, "resident": {"lora_rank": 16}}`))
	f.Add([]byte(`{"model": {"architectures": ["GptOssForCausalLM"], "num_attention_heads": 64, "num_local_experts": 128, "intermediate_size": 2880, "layer_types": ["x"], "mlp_only_layers": [0, 0]}, "resident": {"expert_align": 128, "include_mtp": true, "lora_targets": ["experts", "experts"]}}`))
	f.Add([]byte(`{"fc2": {"expert_parallel": 8}, "resident": {}, "baseline": {"overrides": {"resident": {"lora_rank": 0}}}}`))
	f.Add([]byte(`{"model": {"vocab_size": 1, "vocab_size": 2}}`))
	f.Add([]byte(`{"unknown": {"nested": [1, 2, {"x": null}]}}`))
	f.Add([]byte(`[{}]`))
	f.Add([]byte("{\"request\": {\"rows\": 5}}\n\t "))
	f.Add([]byte(`{"request": {"outputs": {"topk": 1048577}}}`))
	f.Add([]byte(`{"observed": [{"rows": 64902, "peak_bytes": 94780217856, "label": "cold <forward>"}, {"rows": 33706, "peak_bytes": 88242250580}]}`))
	f.Add([]byte(`{"observed": [{"rows": 1, "peak_bytes": 1, "label": "\u00e9\ud800"}, {"rows": 0}, 7, {"": 1}]}`))
	f.Add([]byte(`{"observed": null, "request": {"rows": 5}}`))
	f.Add([]byte(`{"baseline": {"changes": {"fc2_known_storage": true}, "overrides": {"budget": {"capacity_bytes": 85020000000}, "fc2": {"output_width": null}}}}`))
	f.Add([]byte(`{"baseline": {"overrides": {"request": {"rows": 100, "outputs": {"logits": true}}, "allocator_round_bytes": 1}}, "request": {"projected_rows": 200}}`))
	f.Add([]byte(`{"baseline": {"overrides": {"terms": [], "baseline": {}, "changes": {}, "model": {"x": 1}}, "changes": {"y": 2}}}`))
	f.Add([]byte(`{"baseline": null}`))
	f.Add([]byte(`{"baseline": {}}`))
	f.Add([]byte(`{"terms": [{"name": "logits_fp32_copy", "place": "head", "bytes": "2 * D"}, {"name": "w", "place": "retained", "revision": "both", "bytes": "ceil(n * K * 4, 3)"}]}`))
	f.Add([]byte(`{"terms": [{"name": "s1", "place": "stage", "revision": "baseline", "bytes": "max(0, 10_000_000 - n * 100)", "x": 1}]}`))
	f.Add([]byte(`{"terms": null, "model": {"num_experts_per_tok": 0}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := DecodeConfig(data)
		if err != nil {
			errs := FieldErrors(err)
			if len(errs) == 0 {
				t.Fatalf("error %v carries no field error", err)
			}
			for _, e := range errs {
				// The unknown key "" once gave an error naming no field
				// (testdata/fuzz/FuzzDecodeConfig/4832b3fb8cdeb06d).
				if e.Field == "" {
					t.Fatalf("error %q names no field", e.Error())
				}
			}
			if marshalConfigString(c) != marshalConfigString(Default()) {
				t.Fatalf("on error, DecodeConfig returned a changed config")
			}
			return
		}
		if _, err := c.ResolveRevisions(); err != nil {
			t.Fatalf("%q decodes but does not resolve: %v", data, err)
		}
		if len(c.Observed) > 0 { // points are predicted without a panic
			res, err := Estimate(c)
			if err != nil && FieldErrors(err)[0].Field == "" {
				t.Fatalf("%q: error %q names no field", data, err)
			}
			if err == nil && (len(res.Observed) != len(c.Observed) || res.Fit == nil) {
				t.Fatalf("%q: %d points gave %d results", data, len(c.Observed), len(res.Observed))
			}
		}
		out := MarshalConfig(c)
		back, err := DecodeConfig(out)
		if err != nil {
			t.Fatalf("%q decodes, but its marshalled form %s does not: %v", data, out, err)
		}
		if marshalConfigString(back) != string(out) {
			t.Fatalf("round trip of %s gave %s", out, MarshalConfig(back))
		}
	})
}

// inRange maps any x into [lo, hi].
func inRange(x uint64, lo, hi int64) int64 {
	return lo + int64(x%uint64(hi-lo+1))
}

// FuzzEstimate: random in-range values in every field never panic; the
// result is either an overflow *Error (which the reference agrees is one)
// or a result that keeps docs/model.md §4's invariants and, when the request has
// few enough sequences for the reference to list them, equals it.
// fieldSeed is a config holding value at path ("a.b" is {"a": {"b": value}}).
func fieldSeed(path, value string) []byte {
	keys := strings.Split(path, ".")
	return []byte(`{"` + strings.Join(keys, `": {"`) + `": ` + value + strings.Repeat("}", len(keys)))
}

func FuzzEstimate(f *testing.F) {
	// rows, sequence_rows, projected, target, vocab, hidden, layers, K,
	// moe, Hk, Dk, Hv, Dv, chunk, in width, out width, EP, topk,
	// capacity, in_use, retained/row, reserve, safety, round, dtype, flags.
	f.Add(uint64(64902), uint64(4096), uint64(64902), uint64(64902), uint64(151936), uint64(2048), uint64(48), uint64(10),
		uint64(512), uint64(16), uint64(128), uint64(32), uint64(128), uint64(512), uint64(512), uint64(2048), uint64(1), uint64(0),
		uint64(H200CapacityBytes), uint64(0), uint64(196608), uint64(30), uint64(110), uint64(512), uint8(1), uint16(0x7ff))
	f.Add(uint64(64902), uint64(16853), uint64(64902), uint64(64902), uint64(151936), uint64(2048), uint64(48), uint64(10),
		uint64(512), uint64(16), uint64(128), uint64(32), uint64(128), uint64(512), uint64(512), uint64(2048), uint64(1), uint64(0),
		uint64(40_000_000_000), uint64(0), uint64(196608), uint64(0), uint64(110), uint64(512), uint8(1), uint16(0x7ff))
	f.Add(uint64(1<<31-1), uint64(1), uint64(1), uint64(0), uint64(1), uint64(1), uint64(1), uint64(0),
		uint64(1), uint64(0), uint64(1), uint64(1), uint64(1), uint64(1), uint64(1), uint64(1), uint64(1), uint64(1),
		uint64(1<<50), uint64(0), uint64(1<<50), uint64(999), uint64(1000), uint64(1<<30), uint8(3), uint16(0))
	f.Add(uint64(5), uint64(1), uint64(3), uint64(1), uint64(100), uint64(3), uint64(1), uint64(3),
		uint64(7), uint64(2), uint64(3), uint64(5), uint64(7), uint64(2), uint64(9), uint64(11), uint64(4), uint64(2),
		uint64(2000), uint64(100), uint64(0), uint64(0), uint64(100), uint64(1), uint8(2), uint16(0x155))
	f.Add(uint64(1000), uint64(100), uint64(900), uint64(0), uint64(32000), uint64(4096), uint64(32), uint64(2),
		uint64(14336), uint64(0), uint64(1), uint64(1), uint64(1), uint64(1024), uint64(14336), uint64(4096), uint64(8), uint64(0),
		uint64(85_020_000_000), uint64(68_451_041_280), uint64(0), uint64(30), uint64(110), uint64(512), uint8(0), uint16(0x0aa))
	f.Fuzz(func(t *testing.T, rows, seq, proj, target, vocab, hidden, layers, k, moe, hk, dk, hv, dv, chunk, iw, ow, ep, topk,
		capacity, inUse, rpr, reserve, safety, round uint64, dtype uint8, flags uint16) {
		c := Default()
		c.Request.Rows = inRange(rows, 1, 1<<31-1)
		c.Request.SequenceRows = inRange(seq, 1, 1<<31-1)
		c.Request.ProjectedRows = Int64(inRange(proj, 1, c.Request.Rows))
		c.Request.TargetRows = Int64(inRange(target, 0, *c.Request.ProjectedRows))
		if flags&(1<<11) != 0 {
			c.Request.ProjectedRows = nil
		}
		if flags&(1<<12) != 0 {
			c.Request.TargetRows = nil
		}
		c.Model = ModelConfig{
			VocabSize: inRange(vocab, 1, 1<<26), HiddenSize: inRange(hidden, 1, 1<<20),
			NumHiddenLayers: inRange(layers, 1, 1<<20), NumExpertsPerTok: inRange(k, 0, 1024),
			MoEIntermediateSize: inRange(moe, 1, 1<<20), LinearNumKeyHeads: inRange(hk, 0, 1<<20),
			LinearKeyHeadDim: inRange(dk, 1, 1<<20), LinearNumValueHeads: inRange(hv, 1, 1<<20),
			LinearValueHeadDim: inRange(dv, 1, 1<<20),
		}
		c.Head.ChunkRows = inRange(chunk, 1, 1<<31-1)
		c.FC2.InputWidth, c.FC2.OutputWidth = Int64(inRange(iw, 1, 1<<20)), Int64(inRange(ow, 1, 1<<20))
		if flags&(1<<13) != 0 {
			c.FC2.InputWidth, c.FC2.OutputWidth = nil, nil
		}
		c.FC2.ExpertParallel = inRange(ep, 1, 1024)
		c.FC2.DtypeBytes = []int64{1, 2, 4, 8}[dtype%4]
		c.Request.Outputs.TopK = inRange(topk, 0, 1<<20)
		c.Budget.CapacityBytes = inRange(capacity, 1, 1<<50)
		c.Budget.InUseBytes = inRange(inUse, 0, c.Budget.CapacityBytes)
		c.Budget.RetainedPerRowBytes = Int64(inRange(rpr, 0, 1<<50))
		if flags&(1<<14) != 0 {
			c.Budget.RetainedPerRowBytes = nil
		}
		c.Budget.ReservePermille = inRange(reserve, 0, 999)
		c.Budget.SafetyPercent = inRange(safety, 100, 1000)
		c.AllocatorRoundBytes = inRange(round, 1, 1<<30)
		bit := func(i uint) bool { return flags&(1<<i) != 0 }
		c.Request.Grad = bit(0)
		c.Request.Outputs.Logprobs, c.Request.Outputs.Logits, c.Request.Outputs.HiddenStates = bit(1), bit(2), bit(3)
		c.FC2.LoRAMetadataKnown = bit(4)
		c.Changes = Changes{bit(5), bit(6), bit(7)}

		res, err := Estimate(c)
		m := refFrom(c)
		small := m.sequences() <= 2048
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Field == "" {
				t.Fatalf("%s: in-range config refused with %v (%T), want an overflow *Error", MarshalConfig(c), err, err)
			}
			if small && !refEstimate(c).overflow {
				t.Fatalf("%s: %v, but the reference finds no overflow", MarshalConfig(c), err)
			}
			return
		}
		if msg := outcomeProblems(c, res); msg != "" {
			t.Fatalf("%s: %s", MarshalConfig(c), msg)
		}
		r, _ := c.Resolve()
		var cl calc
		var pc piece
		finest := r.sequences()
		for _, v := range []variant{baselineVariant(), r.candidateVariant()} {
			if req := r.requiredOf(&cl, finest, v, &pc).required; cl.err == nil && int64(res.Baseline.LowerBoundBytes) > req {
				t.Fatalf("%s: lower bound %d > finest rung %d", MarshalConfig(c), res.Baseline.LowerBoundBytes, req)
			}
		}
		if small {
			checkAgainstRef(t, string(MarshalConfig(c)), c)
		}
	})
}
