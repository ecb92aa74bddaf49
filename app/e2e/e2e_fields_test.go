//go:build !wasm

package e2e

// The fields in a real browser: knobs that start away from
// their field, a link whose range is reversed, a bad switch value in a
// link, and an axis range that keeps an old GPU's capacity.

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// waitJS polls the JavaScript condition cond until it holds, for up to
// 20 s (scaled by slow); on the deadline it fails the test with what show
// evaluated to the last time.
func (tb *tab) waitJS(what, cond, show string) {
	tb.t.Helper()
	tb.waitUntil(what, 20*time.Second, func() (bool, string) {
		if eval[bool](tb, cond) {
			return true, ""
		}
		return false, eval[string](tb, show)
	})
}

// typeText empties the field id and types text into it, key by key.
func (tb *tab) typeText(id, text string) {
	tb.t.Helper()
	tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const e = document.getElementById(%q); e.focus(); e.value = '';
		e.dispatchEvent(new Event('input', {bubbles: true}));
	})()`, id)), chromedp.SendKeys(chromedp.ID(id), text))
}

// sliderKeys are the controls that have a range input, in page order,
// with every folded group opened (so each can take the focus).
func (tb *tab) sliderKeys() []string {
	tb.t.Helper()
	tb.openFolds()
	ids := eval[string](tb, `(() => {
		document.querySelectorAll('details').forEach(d => d.open = true);
		return [...document.querySelectorAll('input[type=range]')].map(e => e.id).join(' ');
	})()`)
	var keys []string
	for _, id := range strings.Fields(ids) {
		keys = append(keys, strings.TrimPrefix(id, "slider-"))
	}
	if len(keys) < 20 {
		tb.t.Fatalf("only %d sliders on the page: %q", len(keys), ids)
	}
	return keys
}

// thumbPosition is the position (0 to widget.Steps) at which the page
// puts the range input of control key for the state a query describes:
// the slider's definition (page.Sliders; the in-use slider's span follows
// the capacity, page.InUseSlider) and the value the state gives it
// (State.SliderValue), mapped as widget.Slider maps it. ok is false for a
// key that has no slider.
func thumbPosition(q url.Values, key string) (pos int, ok bool) {
	list, err := page.Presets()
	if err != nil {
		return 0, false
	}
	s := page.Decode(q, list)
	for _, sp := range page.Sliders() {
		if sp.Key != key {
			continue
		}
		if key == page.KeyInUseGiB {
			sp = page.InUseSlider(s.Cfg)
		}
		v, _, _ := s.SliderValue(key) // 0 when it has none, as the control shows it
		sl := widget.Slider{Min: sp.Min, Max: sp.Max, Log: sp.Log}
		return sl.Position(v), true
	}
	return 0, false
}

// checkKnobs compares every knob with the position the page's state (its
// address, which follows within 300 ms) puts it at, until they all match
// or 10 s have passed.
func (tb *tab) checkKnobs(when string) {
	tb.t.Helper()
	keys := tb.sliderKeys()
	err := tb.waitUntilErr("every knob at its field's position", 10*time.Second, func() (bool, string) {
		var bad []string
		q := tb.query()
		for _, key := range keys {
			want, ok := thumbPosition(q, key)
			if !ok {
				tb.t.Fatalf("%s: no slider spec for %s", when, key)
			}
			got := eval[string](tb, fmt.Sprintf(`document.getElementById('slider-%s').value`, key))
			if got != strconv.Itoa(want) {
				bad = append(bad, fmt.Sprintf("#slider-%s is at %s, its field %q puts it at %d", key, got, tb.value("input-"+key), want))
			}
		}
		return len(bad) == 0, fmt.Sprintf("(?%s):\n  %s", q.Encode(), strings.Join(bad, "\n  "))
	})
	if err != nil {
		tb.t.Errorf("%s: %v", when, err)
	}
}

// fieldNumberExpr is JavaScript for the number a control's field stands for: its text, or
// the default its placeholder names ("auto (64,902)").
func fieldNumberExpr(key string) string {
	return fmt.Sprintf(`(() => {
		const e = document.getElementById('input-%s');
		let t = e.value.trim();
		if (t === '') { const m = /\(([\d,.]+)\)/.exec(e.placeholder); t = m ? m[1] : 'NaN'; }
		return Number(t.replace(/,/g, ''));
	})()`, key)
}

// TestE2EKnobsMatchFields loads the page fresh and from a link, several
// times (the defect came and went with map order): every knob sits where
// its field puts it, and the arrow keys move every field, up for right
// and down for left.
func TestE2EKnobsMatchFields(t *testing.T) {
	cfg := estimator.Default()
	cfg.Model.HiddenSize = 4096
	cfg.Model.VocabSize = 64000
	cfg.Request.Rows = 100000
	cfg.Head.ChunkRows = 1024
	cfg.Budget.CapacityBytes = estimator.H100CapacityBytes
	cfg.Budget.InUseBytes = 3 << 30
	tb := newTab(t)
	for i := range 3 {
		tb.open("")
		tb.checkKnobs(fmt.Sprintf("fresh load %d", i+1))
		tb.open(query(cfg))
		tb.checkKnobs(fmt.Sprintf("restored link %d", i+1))
	}
	tb.open("")
	for _, key := range tb.sliderKeys() {
		before := eval[float64](tb, fieldNumberExpr(key))
		tb.do(chromedp.Focus(chromedp.ID("slider-"+key)), chromedp.KeyEvent(kb.ArrowRight))
		tb.waitJS(key+": right arrow moves the field up from "+fmt.Sprint(before),
			fmt.Sprintf(`%s > %v`, fieldNumberExpr(key), before), `String(`+fieldNumberExpr(key)+`)`)
		up := eval[float64](tb, fieldNumberExpr(key))
		tb.do(chromedp.KeyEvent(kb.ArrowLeft))
		tb.waitJS(key+": left arrow moves the field down from "+fmt.Sprint(up),
			fmt.Sprintf(`%s < %v`, fieldNumberExpr(key), up), `String(`+fieldNumberExpr(key)+`)`)
	}
	tb.checkKnobs("after the arrows")
}

// TestE2EReversedRangeLink opens a link whose range runs backwards: the
// page renders over the default range and marks the range field.
func TestE2EReversedRangeLink(t *testing.T) {
	tb := newTab(t)
	tb.do(chromedp.Navigate(tb.base + "/?from=500&to=10"))
	tb.waitJS("the page renders with a reversed range in its link", readyExpr,
		`document.getElementById('explorer')?.dataset.ready + ' | ' + document.querySelector('.decision-card')?.textContent`)
	msg := eval[string](tb, `(document.getElementById('error-axis-to')?.textContent ?? '') + (document.getElementById('error-axis-from')?.textContent ?? '')`)
	if strings.TrimSpace(msg) == "" {
		t.Errorf("no message beside the range fields")
	}
	if got := tb.value("axis-from") + ".." + tb.value("axis-to"); got != "500..10" {
		t.Errorf("the range fields show %s, want the link's 500..10", got)
	}
	caption := eval[string](tb, `document.querySelector('#chart figcaption, .chart-caption, figcaption')?.textContent ?? ''`)
	if !strings.Contains(caption, "along rows") {
		t.Errorf("chart caption %q, want it along rows", caption)
	}
	if got := tb.decisions(); got != expectedDecisions(t, page.NewConfig()) {
		t.Errorf("decisions %+v, want the default config's", got)
	}
	// Typing a good range there draws it.
	tb.typeText("axis-to", "5000")
	tb.waitJS("a fixed range clears the message", `(document.getElementById('error-axis-to')?.textContent ?? '').trim() === ''`,
		`document.getElementById('error-axis-to').textContent`)
}

// TestE2EBadSwitchLink opens links with a switch set to a word that is
// not true or false: the switch shows the message, and using it replaces
// the bad value (the address and the warning clear).
func TestE2EBadSwitchLink(t *testing.T) {
	for _, key := range []string{"grad", "head_eager_workspace"} {
		t.Run(key, func(t *testing.T) {
			tb := newTab(t)
			tb.open("?" + key + "=maybe")
			tb.waitJS("the switch shows its message",
				fmt.Sprintf(`(document.getElementById('error-%s')?.textContent ?? '').includes('true or false')`, key),
				fmt.Sprintf(`document.getElementById('error-%s')?.textContent ?? '<no #error-%s>'`, key, key))
			tb.do(chromedp.Click(chromedp.ID("check-" + key)))
			tb.waitJS("using the switch clears the bad value",
				fmt.Sprintf(`!location.search.includes('maybe') && (document.getElementById('error-%s')?.textContent ?? '') === '' && !document.querySelector('.stale-note')`, key),
				`location.search + ' | ' + (document.querySelector('.stale-note')?.textContent ?? '')`)
		})
	}
}

// TestE2EInUseAxisFollowsGPU sweeps in_use_bytes and picks another GPU:
// the range the user did not type follows the capacity; a typed range
// stays until "fit range".
func TestE2EInUseAxisFollowsGPU(t *testing.T) {
	tb := newTab(t)
	tb.open("?axis=in_use_bytes")
	if got := tb.value("axis-to"); got != strconv.FormatInt(estimator.H200CapacityBytes, 10) {
		t.Fatalf("#axis-to = %s on an H200, want its capacity", got)
	}
	pick := func(id, value string) {
		tb.do(chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
			const s = document.getElementById(%q); s.value = %q;
			s.dispatchEvent(new Event('change', {bubbles: true}));
		})()`, id, value)))
	}
	pick("gpu", "h100")
	h100 := strconv.FormatInt(estimator.H100CapacityBytes, 10)
	tb.waitJS("the range follows the H100", fmt.Sprintf(`document.getElementById('axis-to').value === %q`, h100),
		`document.getElementById('axis-to').value`)
	tb.typeText("axis-to", "40000000000")
	pick("gpu", "h200")
	tb.waitJS("the page takes the H200", `document.getElementById('input-capacity_bytes').value === '`+
		strconv.FormatInt(estimator.H200CapacityBytes, 10)+`'`, `document.getElementById('input-capacity_bytes').value`)
	if got := tb.value("axis-to"); got != "40000000000" {
		t.Errorf("a typed range moved with the GPU: #axis-to = %s", got)
	}
	tb.do(chromedp.Click(chromedp.ID("axis-fit")))
	tb.waitJS("fit range puts the range back to the H200's", fmt.Sprintf(`document.getElementById('axis-to').value === '%d'`, estimator.H200CapacityBytes),
		`document.getElementById('axis-to').value`)
}

// TestE2EUnitsInFields types 80GiB into capacity_bytes: the page takes
// it, keeps the text while the field has the focus, and shows the exact
// bytes once committed; along in_use_bytes the flip sentences give bytes
// with GiB beside them.
func TestE2EUnitsInFields(t *testing.T) {
	tb := newTab(t)
	tb.open("?axis=in_use_bytes")
	tb.waitJS("the flip sentences give GiB beside bytes", `document.getElementById('flips-baseline').textContent.includes(' GiB)')`,
		`document.getElementById('flips-baseline').textContent`)
	tb.typeText("input-capacity_bytes", "80GiB")
	want := strconv.FormatInt(80<<30, 10)
	tb.waitJS("the address takes 80GiB in bytes", `location.search.includes('capacity_bytes=`+want+`')`, `location.search`)
	if got := tb.value("input-capacity_bytes"); got != "80GiB" {
		t.Errorf("while typing the field shows %q, want 80GiB", got)
	}
	if got := tb.value("gpu"); got != "custom" {
		t.Errorf("the GPU menu says %q for 80 GiB, want custom", got)
	}
	tb.do(chromedp.KeyEvent(kb.Enter))
	tb.waitJS("the committed field shows the exact bytes", `document.getElementById('input-capacity_bytes').value === '`+want+`'`,
		`document.getElementById('input-capacity_bytes').value`)
	tb.typeText("input-rows", "1.5")
	tb.waitJS("a fraction of a row is refused with the reason", `document.getElementById('error-rows').textContent.includes('whole')`,
		`document.getElementById('error-rows').textContent`)
}

// TestE2EImportDtypeAndExperts pastes a config.json with torch_dtype and
// an expert count: dtype_bytes follows the dtype, the report shows the
// expert count; a syntax error says its line and column.
func TestE2EImportDtypeAndExperts(t *testing.T) {
	tb := newTab(t)
	tb.open("")
	tb.paste(`{"model_type": "mixtral", "vocab_size": 32000, "hidden_size": 4096, "num_hidden_layers": 32,
 "num_experts_per_tok": 2, "num_local_experts": 8, "intermediate_size": 14336, "torch_dtype": "float32"}`)
	tb.waitJS("the report shows the expert count", `document.getElementById('import-report').textContent.includes('num_local_experts = 8')`,
		`document.getElementById('import-report').textContent`)
	tb.openFolds("dtype_bytes")
	tb.waitJS("dtype_bytes follows torch_dtype", `document.getElementById('input-dtype_bytes').value === '4'`,
		`document.getElementById('input-dtype_bytes').value`)
	tb.paste("{\n  \"vocab_size\": 5,\n}")
	tb.waitJS("a syntax error names its line and column", `document.getElementById('import-report').textContent.includes('line 3, column 1')`,
		`document.getElementById('import-report').textContent`)
}
