//go:build !wasm

package e2e

// The monkey's actions: what it plans from a seed, how it takes each in
// the page, and the fresh-tab check.

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	"sort"
	"strconv"
	"strings"

	"github.com/chromedp/chromedp/kb"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// action is one thing the monkey does. Op is one of: slide (Key's slider
// to position N), keys (Text, a key name, N times on Key's slider), type
// (Text into the field with id Key; N 1 commits it, as Enter or leaving
// the field does), menu (option N of the menu Key), fit (the "Fit range"
// button),
// switch (the switch check-Key), import (Text pasted into the import box),
// address (open ?Text), edit-address (set Key to Text in the address, or
// delete it when N is 1, and open that), reload, back, forward.
type action struct {
	Op, Key, Text string
	N             int
}

// String is the action as a Go literal, for TestE2EMonkeyFound.
func (a action) String() string {
	return fmt.Sprintf("{%q, %q, %q, %d}", a.Op, a.Key, a.Text, a.N)
}

// monkeyKeys are the keys the monkey presses on a slider.
var monkeyKeys = map[string]string{
	"ArrowRight": kb.ArrowRight, "ArrowLeft": kb.ArrowLeft, "ArrowUp": kb.ArrowUp, "ArrowDown": kb.ArrowDown,
	"PageUp": kb.PageUp, "PageDown": kb.PageDown, "Home": kb.Home, "End": kb.End,
}

// monkeyPlan is the seed's sequence of n actions. It depends on the seed
// alone, so a seed replays the same actions.
func monkeyPlan(seed uint64, n int) []action {
	r := rand.New(rand.NewPCG(seed, 0x6d6f6e6b6579))
	var sliders, fields, switches []string
	for _, sp := range page.Sliders() {
		k := sp.Key
		sliders = append(sliders, k)
		fields = append(fields, "input-"+k)
	}
	fields = append(fields, page.KeyFrom, page.KeyTo)
	for _, f := range estimator.Fields() {
		if f.Kind == estimator.BoolField {
			switches = append(switches, f.Key)
		}
	}
	switches = append(switches, "topk", "expert_parallel")
	keyNames := make([]string, 0, len(monkeyKeys))
	for k := range monkeyKeys {
		keyNames = append(keyNames, k)
	}
	sort.Strings(keyNames)
	pick := func(list []string) string { return list[r.IntN(len(list))] }
	weights := []struct {
		op string
		w  int
	}{{"slide", 20}, {"keys", 10}, {"type", 25}, {"menu", 10}, {"fit", 3}, {"switch", 8}, {"import", 7},
		{"address", 4}, {"edit-address", 5}, {"reload", 4}, {"back", 4}, {"forward", 3}}
	total := 0
	for _, w := range weights {
		total += w.w
	}
	acts := make([]action, 0, n)
	for len(acts) < n {
		x := r.IntN(total)
		op := ""
		for _, w := range weights {
			if x < w.w {
				op = w.op
				break
			}
			x -= w.w
		}
		var a action
		switch op {
		case "slide":
			a = action{Op: op, Key: pick(sliders), N: r.IntN(widget.Steps + 1)}
		case "keys":
			a = action{Op: op, Key: pick(sliders), Text: pick(keyNames), N: 1 + r.IntN(5)}
		case "type":
			k := pick(fields)
			a = action{Op: op, Key: k, Text: monkeyText(r, strings.TrimPrefix(k, "input-")), N: r.IntN(2)}
		case "menu":
			a = action{Op: op, Key: pick([]string{page.KeyPreset, page.KeyGPU, page.KeyAxis, page.KeyProfile}), N: r.IntN(16)}
		case "switch":
			a = action{Op: op, Key: pick(switches)}
		case "import":
			a = action{Op: op, Text: monkeyImport(r)}
		case "address":
			q := url.Values{}
			for range 1 + r.IntN(4) {
				k, v := monkeyQueryValue(r, sliders)
				q.Add(k, v)
			}
			a = action{Op: op, Text: q.Encode()}
		case "edit-address":
			k, v := monkeyQueryValue(r, sliders)
			a = action{Op: op, Key: k, Text: v}
			if r.IntN(4) == 0 {
				a.Text, a.N = "", 1
			}
		default:
			a = action{Op: op}
		}
		acts = append(acts, a)
	}
	return acts
}

// monkeyText is text a person might type into a field: valid values,
// grouped digits, extremes, units and garbage.
func monkeyText(r *rand.Rand, key string) string {
	lo, hi := int64(0), int64(1<<40)
	if f, ok := estimator.FieldByKey(key); ok {
		lo, hi = f.Min, f.Max
	}
	if key == page.KeyInUseGiB {
		switch r.IntN(4) {
		case 0:
			return strconv.FormatFloat(float64(r.IntN(40000))/100, 'f', -1, 64)
		case 1:
			return pickOf(r, "63.75", "0", "0.5", "1,024.5", "141", "200", "1e3", "-1", "64 GiB", ".5", "5.", "NaN")
		}
	}
	switch r.IntN(6) {
	case 0, 1: // a valid value, spread over the range's magnitudes
		span := max(1, min(hi, 1<<40)-lo)
		v := lo + int64(float64(span)*r.Float64()*r.Float64()*r.Float64())
		if r.IntN(3) == 0 {
			return estimator.Group(v)
		}
		return strconv.FormatInt(v, 10)
	case 2: // the edges
		return pickOf(r, strconv.FormatInt(lo, 10), strconv.FormatInt(hi, 10),
			strconv.FormatInt(lo-1, 10), strconv.FormatInt(hi+1, 10), "0", "1",
			"9223372036854775807", "9223372036854775808", "-9223372036854775808", "99999999999999999999999")
	case 3: // units and notations
		return pickOf(r, "64k", "1 GiB", "2048MiB", "1e5", "3.5", "0x10", "1_000", "64,902", " 4096 ", "+12", "1,,000", ",100", "auto",
			"80GiB", "80 GB", "1.5TiB", "8e10", "2M", "0.5k", "96 gib", "1KiB")
	default: // garbage
		return pickOf(r, "", " ", "abc", "NaN", "-Infinity", "１２３", "٣", "<b>x</b>", `"'&`, "💥", "12abc", "--1", "null", "\t7\n")
	}
}

func pickOf(r *rand.Rand, list ...string) string { return list[r.IntN(len(list))] }

// monkeyImport is text pasted into the import box: Hugging Face configs,
// configs in the spec's format, and broken ones.
func monkeyImport(r *rand.Rand) string {
	switch r.IntN(3) {
	case 0:
		name := pickOf(r, "deepseek-v3.json", "gpt-oss-120b.json", "llama-3.1-8b.json", "mixtral-8x7b.json",
			"nested-text-config.json", "qwen3-30b-a3b.json", "qwen3-next-80b-a3b.json")
		data, err := os.ReadFile("../../estimator/hfconfig/testdata/hf/" + name)
		if err != nil {
			return `{"broken": ` // the file is missing: a broken import still
		}
		return string(data)
	case 1:
		cfg := map[string]map[string]any{}
		for range 1 + r.IntN(3) {
			f := estimator.Fields()[r.IntN(len(estimator.Fields()))]
			sec, key, _ := strings.Cut(f.Path, ".")
			if cfg[sec] == nil {
				cfg[sec] = map[string]any{}
			}
			if f.Kind == estimator.BoolField {
				cfg[sec][key] = r.IntN(2) == 0
			} else {
				cfg[sec][key] = f.Min + r.Int64N(max(1, min(f.Max, 1<<30)-f.Min))
			}
		}
		b, _ := json.Marshal(cfg)
		return string(b)
	}
	return pickOf(r, `{"vocab_size": 32000, "hidden_size": `, `[]`, `null`, `"text"`, `garbage`,
		`{"model": {"vocab_size": -5}}`, `{"request": {"rows": "many"}}`, `{"request": {"rows": 0}}`,
		`{"vocab_size": 1e400}`, `{"hidden_size": 4096.5}`, `{"model": {"nope": 1}}`, `{"budget": {"in_use_bytes": 999999999999999}}`)
}

// monkeyQueryValue is one key and value of a hand-edited address.
func monkeyQueryValue(r *rand.Rand, sliders []string) (string, string) {
	switch r.IntN(8) {
	case 0:
		var ids []string
		list, _ := page.Presets()
		for _, p := range list {
			ids = append(ids, p.ID)
		}
		return page.KeyPreset, pickOf(r, append([]string{"bogus"}, ids...)...)
	case 1:
		ids := []string{"h300", ""}
		for _, g := range estimator.GPUs() {
			ids = append(ids, g.ID)
		}
		return page.KeyGPU, pickOf(r, ids...)
	case 2:
		return page.KeyAxis, pickOf(r, append([]string{"nope", "grad"}, sliders...)...)
	case 3:
		return pickOf(r, "from", "to"), monkeyText(r, "")
	case 4:
		f := estimator.Fields()[r.IntN(len(estimator.Fields()))]
		if f.Kind == estimator.BoolField {
			return f.Key, pickOf(r, "true", "false", "yes", "2", "")
		}
		return f.Key, monkeyText(r, f.Key)
	case 5:
		return pickOf(r, "foo", "panic", "in_use_gib"), monkeyText(r, page.KeyInUseGiB)
	}
	k := sliders[r.IntN(len(sliders))]
	if k == page.KeyInUseGiB {
		k = "in_use_bytes"
	}
	return k, monkeyText(r, k)
}
