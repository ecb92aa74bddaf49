package ui

import (
	"net/url"
	"testing"
	"time"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
)

// TestMountBigLayerLinkBounded: a link whose weights cannot fit at any
// expert parallelism and whose model has 2^20 layers (each Resolve
// walked them all) mounts with a bounded number of Resolves: the suggestion of
// an expert parallelism prices the next E and the divisors of the
// routed experts above it once, and the controls resolve the config
// once for all their "auto" values.
func TestMountBigLayerLinkBounded(t *testing.T) {
	q, _ := url.ParseQuery("rows=2147483647&hidden_size=1048576&num_hidden_layers=1048576")
	before := page.CountedSteps()
	start := time.Now()
	c, disp := mountExplorer(t, q)
	took := time.Since(start)
	d := page.CountedSteps().Sub(before)
	s := c.state
	if s.WeightsDoNotFit() == "" {
		t.Fatalf("the link's weights fit: errors %v", s.Errs)
	}
	x, _ := s.Cfg.RoutedExperts()
	above := int64(0)
	for e := s.Cfg.FC2.ExpertParallel + 1; e <= x; e++ {
		if x%e == 0 {
			above++
		}
	}
	t.Logf("mount in %v: %+v", took, d)
	if d.Resolve > 4+above {
		t.Errorf("%d Resolves of the page's own, want at most %d: %+v", d.Resolve, 4+above, d)
	}
	if d.FitE < 2 {
		t.Errorf("the suggestion was asked %d times: the test does not see the panel", d.FitE)
	}
	// Rendering the same config again (any event that asks for a render)
	// resolves nothing of the page's own: the answers are remembered.
	renders := c.renders
	before = page.CountedSteps()
	disp.Dispatch(app.Dispatch{Mode: app.Update, Source: c, Function: func(app.Context) {}})
	disp.Consume()
	if d := page.CountedSteps().Sub(before); d.Resolve != 0 || d.FitE == 0 {
		t.Errorf("a render of the same config: %+v (renders %d, then %d), want no Resolve", d, renders, c.renders)
	}
}
