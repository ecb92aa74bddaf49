package estimator

import "testing"

// TestResolvedDefaults: every Optional integer field of the registry (the
// art profile's too) says what Resolve gives it left unset, and that is
// what the resolved default config holds; the other fields have none.
func TestResolvedDefaults(t *testing.T) {
	t.Parallel()
	c := Default()
	r, err := c.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int64{
		"projected_rows": r.N, "target_rows": r.N, "input_width": c.Model.MoEIntermediateSize, "output_width": c.Model.HiddenSize,
		"padded_vocab_multiple": 128, "adapter_gradient_bytes_per_layer": 0, "adapter_gradient_outside_bytes": 0, "gdn_out_proj_lora_rank": 0,
	}
	for _, f := range append(Fields(), ArtFields()...) {
		v, ok := f.ResolvedDefault(&r)
		if ok != (f.Optional && f.Kind == IntField) {
			t.Errorf("%s: a resolved default %v, optional %v", f.Key, ok, f.Optional)
		}
		if w, listed := want[f.Key]; listed && v != w {
			t.Errorf("%s: resolved default %d, want %d", f.Key, v, w)
		}
	}
}
