//go:build !wasm

package e2e

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"headroom/estimator"
)

// A stage of the breakdown opens and closes its tensors: closed
// at load, the stage's button draws the tensors both revisions hold under
// it, in order, says so (aria-expanded), and a second click takes them away.
func TestE2EBreakdownStages(t *testing.T) {
	cfg := estimator.Default()
	res, err := estimator.Estimate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var stage string
	var want []string
	for _, st := range res.Candidate.Stages {
		if len(st.Tensors) > 0 {
			stage = st.Name
			for _, tn := range st.Tensors {
				want = append(want, tn.Name)
			}
			break
		}
	}
	if stage == "" {
		t.Fatal("the default config's candidate has no stage with tensors")
	}
	for _, st := range res.Baseline.Stages {
		if st.Name != stage {
			continue
		}
		for _, tn := range st.Tensors {
			if !slices.Contains(want, tn.Name) {
				want = append(want, tn.Name)
			}
		}
	}
	tb := newTab(t)
	tb.open(query(cfg))
	// The rows under the stage's row, up to the next stage or total.
	rows := fmt.Sprintf(`(() => {
		const b = document.querySelector('#breakdown button[data-stage=' + JSON.stringify(%s) + ']');
		if (!b) return 'no button for the stage';
		const names = [];
		for (let tr = b.closest('tr').nextElementSibling; tr && tr.classList.contains('tensor'); tr = tr.nextElementSibling) {
			names.push(tr.querySelector('th').textContent);
		}
		return {expanded: b.getAttribute('aria-expanded'), names, tensors: document.querySelectorAll('#breakdown tr.tensor').length};
	})()`, js(stage))
	click := fmt.Sprintf(`document.querySelector('#breakdown button[data-stage=' + JSON.stringify(%s) + ']').click()`, js(stage))
	closed := fmt.Sprintf(`(r => typeof r === 'object' && r.expanded === 'false' && r.tensors === 0 || JSON.stringify(r))(%s)`, rows)
	tb.waitFor("the breakdown drawn with every stage closed", closed, 30*time.Second)
	eval[bool](tb, click+`, true`)
	tb.waitFor(fmt.Sprintf("%s opened with its tensors %v", stage, want),
		fmt.Sprintf(`(r => typeof r === 'object' && r.expanded === 'true' && JSON.stringify(r.names) === %s && r.tensors === %d || JSON.stringify(r))(%s)`,
			js(js(want)), len(want), rows), 30*time.Second)
	eval[bool](tb, click+`, true`)
	tb.waitFor(stage+" closed again", closed, 30*time.Second)
	tb.checkConsole()
}
