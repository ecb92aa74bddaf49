package estimator

import (
	"reflect"
	"testing"
)

// TestActingChanges: issue 27, defect 12. Each switch is inert exactly
// where docs/model.md §3 says it changes nothing.
func TestActingChanges(t *testing.T) {
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
