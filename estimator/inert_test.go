package estimator

import (
	"reflect"
	"testing"
)

// TestActingChanges: Each switch is inert exactly
// where docs/model.md §3 says it changes nothing.
func TestActingChanges(t *testing.T) {
	t.Parallel()
	dense := Default()
	dense.Model.LinearNumKeyHeads = 0
	unknown := Default()
	unknown.FC2.LoRAMetadataKnown = false
	logitsGrad := Default()
	logitsGrad.Request.Outputs = Outputs{Logits: true}
	noMoE := Default()
	noMoE.Model.NumExpertsPerTok = 0
	for _, c := range []struct {
		name          string
		cfg           Config
		acting, inert []string
	}{
		{"Qwen3-Next", Default(), []string{"head_eager_workspace", "fc2_known_storage", "gdn_early_release"}, nil},
		{"no GDN", dense, []string{"head_eager_workspace", "fc2_known_storage"}, []string{"gdn_early_release"}},
		{"metadata unknown", unknown, []string{"head_eager_workspace", "gdn_early_release"}, []string{"fc2_known_storage"}},
		{"logits with grad", logitsGrad, []string{"fc2_known_storage", "gdn_early_release"}, []string{"head_eager_workspace"}},
		{"K = 0", noMoE, []string{"head_eager_workspace", "gdn_early_release"}, []string{"fc2_known_storage"}},
	} {
		acting, inert := ActingChanges(c.cfg)
		if !reflect.DeepEqual(acting, c.acting) || !reflect.DeepEqual(inert, c.inert) {
			t.Errorf("%s: acting %v, inert %v; want %v, %v", c.name, acting, inert, c.acting, c.inert)
		}
	}
}

// TestTermVariableX: A term may use X, the total
// number of routed experts, from num_experts or its HF names.
func TestTermVariableX(t *testing.T) {
	t.Parallel()
	cfg := Default()
	x := int64(512)
	cfg.Model.ArchFields = &ArchFields{NumLocalExperts: &x}
	cfg.Terms = []Term{{Name: "router_logits", Place: "stage", Bytes: "n * X * 4"}}
	res, err := Estimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var got Bytes
	for _, s := range res.Candidate.Stages {
		for _, tn := range s.Tensors {
			if tn.Name == "router_logits" {
				got = tn.Bytes
			}
		}
	}
	rows := res.Candidate.ChildRows
	round := cfg.AllocatorRoundBytes
	want := (rows*512*4 + round - 1) / round * round
	if int64(got) != want {
		t.Errorf("router_logits %d bytes, want n x X x 4 = %d rounded to %d: %d", got, rows, round, want)
	}
	if x, ok := TotalExperts(cfg.Model); !ok || x != 512 {
		t.Errorf("TotalExperts = %d, %v", x, ok)
	}
}
