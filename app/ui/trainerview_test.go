package ui

import (
	"html"
	"net/url"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// The page under ART's code: the Trainer says so, the
// breakdown lists ART's alternatives and marks the one that sets the
// price, the panels say who priced them, and the chart's stage lines are
// named after the alternatives.
func TestExplorerUnderArt(t *testing.T) {
	c, d := mountExplorer(t, url.Values{"rows": {"300000"}, "expert_parallel": {"8"}, "profile": {"art"}})
	res := c.shown.result.Candidate
	cfg := estimator.Default()
	cfg.Request.Rows, cfg.FC2.ExpertParallel, cfg.Profile = 300000, 8, estimator.ProfileArt
	want, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if res.RequiredBytes != want.Candidate.RequiredBytes || res.Reason != want.Candidate.Reason {
		t.Fatalf("shown %d %q, ART's %d %q", res.RequiredBytes, res.Reason, want.Candidate.RequiredBytes, want.Candidate.Reason)
	}
	out := html.UnescapeString(app.HTMLString(c))
	for _, s := range []string{
		want.Candidate.Reason,
		"priced by ART's code",
		want.Candidate.DominantStage + " (sets the price)",
		"Under ART's code the stages are alternatives",
		"gdn_floor",
		"moe (ART)",
		`data-selected="art"`,
		"More fields of ART's code",
	} {
		if !strings.Contains(out, s) {
			t.Errorf("the page lacks %q", s)
		}
	}
	// A stage's tensors are drawn once it is opened (TestBreakdownFoldsTensors):
	// each alternative with tensors is a button that opens them.
	for _, st := range want.Candidate.Stages {
		if len(st.Tensors) > 0 && !strings.Contains(out, `data-stage="`+st.Name+`"`) {
			t.Errorf("the breakdown has no button opening %s's tensors", st.Name)
		}
	}
	ids := idsIn(out)
	for _, id := range []string{"profile", "error-profile", "art-more"} {
		if !ids[id] {
			t.Errorf("no element #%s", id)
		}
	}
	// The group is closed: its fields are drawn when it is opened
	// (TestFoldDrawsItsFieldsWhenOpen).
	for _, id := range []string{"check-checkpoint_floor", "input-padded_vocab_multiple"} {
		if ids[id] {
			t.Errorf("#%s drawn in the closed group", id)
		}
	}
	// An art field edited on the page reaches the price.
	typeInto(d, c, "adapter_gradient_outside_bytes", "1073741824")
	cfg.Art.AdapterGradientOutsideBytes = new(int64)
	*cfg.Art.AdapterGradientOutsideBytes = 1 << 30
	want, _ = estimator.Estimate(cfg)
	if got := c.state.Result.Candidate.RequiredBytes; got != want.Candidate.RequiredBytes {
		t.Errorf("after adapter_gradient_outside_bytes: %d, want %d", got, want.Candidate.RequiredBytes)
	}
	send(d, c, page.Edit{Kind: page.EditCheck, Key: "checkpoint_floor", On: false, Settle: true})
	if f := c.state.Cfg.Art.CheckpointFloor; f == nil || *f {
		t.Errorf("the checkpoint_floor switch did not reach the config")
	}
}

// Under the seeds' reading nothing of ART's shows beyond its controls.
func TestExplorerSeedsShowsNoArt(t *testing.T) {
	c, _ := mountExplorer(t, nil)
	out := html.UnescapeString(app.HTMLString(c))
	for _, s := range []string{"(sets the price)", "priced by ART's code", "(ART)", "Under ART's code the stages"} {
		if strings.Contains(out, s) {
			t.Errorf("the seeds' page says %q", s)
		}
	}
}

// Terms with ART's code: priced with no message; each term row offers
// ART's places and the mode, and each switch that is on can be written
// as terms.
func TestExplorerTermsUnderArt(t *testing.T) {
	term := urlquery.EncodeTerm(estimator.Term{Name: "x", Place: "activations", Revision: "candidate", Bytes: "n*64"})
	c, _ := mountExplorer(t, url.Values{"profile": {"art"}, "term": {term}})
	if c.banner.Message != "" {
		t.Fatalf("banner: %s", c.banner.Message)
	}
	if len(c.state.Errs) != 0 || c.state.Cfg.Profile != estimator.ProfileArt || len(c.state.Cfg.Terms) != 1 {
		t.Fatalf("errors %v, profile %q, terms %v", c.state.Errs, c.state.Cfg.Profile, c.state.Cfg.Terms)
	}
	out := html.UnescapeString(app.HTMLString(c))
	for _, want := range []string{`id="term-mode-0"`, `value="input_gradient"`, `value="replace"`,
		`id="as-terms-head_eager_workspace"`, `id="as-terms-fc2_known_storage"`} {
		if !strings.Contains(out, want) {
			t.Errorf("the page lacks %s", want)
		}
	}
	if !c.shown.ready {
		t.Error("nothing rendered")
	}
}
