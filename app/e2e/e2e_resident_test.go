//go:build !wasm

package e2e

import (
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"headroom/app/ui"
	"headroom/app/ui/page"
)

// pickPreset chooses id from the model menu, as a person does.
func (tb *tab) pickPreset(id string) {
	tb.t.Helper()
	tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const m = document.getElementById('preset');
		m.value = %s;
		m.dispatchEvent(new Event('change', {bubbles: true}));
	})()`, js(id))))
	tb.waitFor("the preset "+id+" picked", fmt.Sprintf(`document.getElementById('preset').value === %s`, js(id)), 15*time.Second)
}

// residentOf is the page's state for a link, as the estimator prices it.
func residentOf(t *testing.T, q url.Values) page.State {
	t.Helper()
	list, err := page.Presets()
	if err != nil {
		t.Fatal(err)
	}
	return page.Decode(q, list)
}

// TestE2EResidentPresets picks two presets from the menu and reads what
// is resident on the GPU in the candidate's panel and the "On the GPU"
// group, each figure the estimator's for that model at the page's expert
// parallelism 8; then a typed in_use_bytes wins, with the computed
// figure beside it.
func TestE2EResidentPresets(t *testing.T) {
	tb := newTab(t)
	tb.open("?rows=4096")
	for _, id := range []string{"qwen3-30b-a3b", "llama-3.1-8b"} {
		tb.pickPreset(id)
		s := residentOf(t, url.Values{"rows": {"4096"}, page.KeyPreset: {id}})
		rr := s.Result.Candidate.Resident
		if !s.Valid || rr == nil || rr.Source != "resident" {
			t.Fatalf("%s: the estimator's state: valid %v, errors %v", id, s.Valid, s.Errs)
		}
		tb.waitText("resident-candidate", ui.ResidentLine(rr))
		tb.waitText("resident-facts", rr.Architecture, rr.ResidentBytes.String(), rr.WeightsBytes.GiBString()+" GiB")
	}
	tb.typeText("input-"+page.KeyInUseGiB, "80")
	tb.waitText("resident-candidate", "80.000 GiB in use as given", "computed: ")
	tb.waitText("resident-facts", "80.000 GiB as typed (computed: ")
	tb.checkConsole()
}

// TestE2EResidentNoFit picks DeepSeek-V3, whose weights do not fit one
// GPU of eight: the chart gives way to the figure and the smallest
// expert parallelism that fits (16), whose button then prices it.
func TestE2EResidentNoFit(t *testing.T) {
	tb := newTab(t)
	tb.open("?rows=4096&preset=qwen3-30b-a3b")
	tb.pickPreset("deepseek-v3")
	s := residentOf(t, url.Values{"rows": {"4096"}, page.KeyPreset: {"deepseek-v3"}})
	msg := s.WeightsDoNotFit()
	e, w, ok := s.FitExpertParallel()
	if msg == "" || !ok {
		t.Fatalf("the estimator fits DeepSeek-V3 at E = 8: %v", s.Errs)
	}
	weights := msg[strings.Index(msg, "weights are ")+len("weights are ") : strings.Index(msg, " per GPU")]
	tb.waitText("no-fit-text", "The weights cannot fit", weights,
		fmt.Sprintf("At expert parallelism %d ", e), w.GiBString()+" GiB per GPU")
	tb.waitFor("no chart beside the message", `!document.querySelector('#chart svg') || 'a chart is drawn'`, 10*time.Second)
	tb.do(chromedp.Click(chromedp.ID("no-fit-use")))
	tb.waitQuery(fmt.Sprintf("expert_parallel=%d", e), func(q string) bool {
		return strings.Contains(q, fmt.Sprintf("expert_parallel=%d", e))
	})
	s = residentOf(t, url.Values{"rows": {"4096"}, page.KeyPreset: {"deepseek-v3"}, "expert_parallel": {fmt.Sprint(e)}})
	if !s.Valid {
		t.Fatalf("at E = %d: %v", e, s.Errs)
	}
	tb.waitText("resident-candidate", ui.ResidentLine(s.Result.Candidate.Resident))
	tb.waitFor("the chart back", `!!document.querySelector('#chart svg') || 'no chart'`, 15*time.Second)
	tb.checkConsole()
}

// TestE2EResidentHugeLayers opens a link (untrusted input) whose model
// has 2^20 layers and whose weights fit at no expert parallelism: the
// page says so, and stays responsive: an edit is taken and the message
// follows it. Each render used to resolve the config at every expert
// parallelism up to 1,024, twice, each walking every layer (minutes of
// a frozen tab).
func TestE2EResidentHugeLayers(t *testing.T) {
	const link = "rows=2147483647&hidden_size=1048576&num_hidden_layers=1048576"
	tb := newTab(t)
	tb.do(chromedp.Navigate(tb.base + "/?" + link))
	// the page has no chart to wait for (tb.open): the WebAssembly side
	// mounted it (the server's prerender says live 0)
	tb.waitFor("the WebAssembly side to render the explorer", `(e => (!!e && e.dataset.live === '1' && e.dataset.ready === '1') ||
		{explorer: !!e, live: e?.dataset.live, ready: e?.dataset.ready})(document.getElementById('explorer'))`, 90*time.Second)
	for _, hidden := range []string{"", "4096"} {
		q, _ := url.ParseQuery(link)
		if hidden != "" {
			q.Set("hidden_size", hidden)
			tb.typeText("input-hidden_size", hidden)
			tb.waitQuery("hidden_size="+hidden, func(s string) bool { return strings.Contains(s, "hidden_size="+hidden) })
		}
		s := residentOf(t, q)
		msg := s.WeightsDoNotFit()
		if _, _, ok := s.FitExpertParallel(); msg == "" || ok {
			t.Fatalf("hidden_size %q: the estimator fits the link's weights: %v", hidden, s.Errs)
		}
		weights := msg[strings.Index(msg, "weights are ")+len("weights are ") : strings.Index(msg, " per GPU")]
		tb.waitText("no-fit-text", "The weights cannot fit", weights, "No expert parallelism the experts allow makes them fit")
	}
	tb.checkConsole()
}
