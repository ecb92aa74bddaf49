//go:build bench

package ui

// What make bench needs from the page's insides, built only with the bench
// tag: never in the page people load.

import (
	"fmt"
	"math"
	"math/rand/v2"
	"net/url"
	"strconv"
	"strings"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
)

// SlideInput is one timed input: slider key, the range input's new
// position, and how long to wait after a frame starts before sending it.
type SlideInput struct {
	Key     string  `json:"key"`
	Pos     int     `json:"pos"`
	DelayMs float64 `json:"delay"`
}

// SlideInputs makes n inputs from the default page that each change the
// config to a valid one (the explorer bumps data-renders only then),
// moving the sliders named by keys by one of steps at a time. It replays
// them on the page's own state, so an input that would change nothing or
// leave the inputs invalid is never sent.
func SlideInputs(n int, keys []string, steps []int) ([]SlideInput, error) {
	return SlideInputsAt("", n, keys, steps)
}

// SlideInputsAt is SlideInputs from the page a query opens (with or
// without its "?"; "" is the default page), as make bench's -bench.query
// opens it (?profile=art: under ART's code).
func SlideInputsAt(query string, n int, keys []string, steps []int) ([]SlideInput, error) {
	list, err := page.Presets()
	if err != nil {
		return nil, err
	}
	q, err := url.ParseQuery(strings.TrimPrefix(query, "?"))
	if err != nil {
		return nil, fmt.Errorf("the query %q: %w", query, err)
	}
	specs := map[string]page.SliderSpec{}
	for _, group := range [][]page.SliderSpec{page.ModelSliders, page.ModelMore, page.RequestSliders, page.FC2Sliders, page.FC2More, page.BudgetMore, {page.CapacitySlider}} {
		for _, s := range group {
			specs[s.Key] = s
		}
	}
	state := page.Decode(q, list)
	view := controlViewOf(&state, list)
	pos := map[string]int{}
	sliders := map[string]*widget.Slider{}
	for _, k := range keys {
		spec, ok := specs[k]
		if !ok {
			return nil, fmt.Errorf("no slider %q among the controls", k)
		}
		s, ok := (&controls{View: view}).slider(spec).(*widget.Slider)
		if !ok {
			return nil, fmt.Errorf("controls.slider(%q) is not a *slider", k)
		}
		sliders[k], pos[k] = s, s.Position(view.Values[k])
	}
	rng := rand.New(rand.NewPCG(2026, 11))
	key := planKey(&state)
	var plan []SlideInput
	for tries := 0; len(plan) < n; tries++ {
		if tries > 100*n {
			return nil, fmt.Errorf("found only %d inputs that change the render", len(plan))
		}
		k := keys[rng.IntN(len(keys))]
		s := sliders[k]
		step := steps[rng.IntN(len(steps))]
		if rng.IntN(2) == 0 {
			step = -step
		}
		p := min(widget.Steps, max(0, pos[k]+step))
		if p == pos[k] {
			continue
		}
		text := s.Format(s.ValueAt(p))
		next := state.Clone()
		next.SetText(k, text)
		next.Validate()
		nextKey := planKey(&next)
		if !next.Valid || nextKey == key {
			continue
		}
		state, key, pos[k] = next, nextKey, p
		plan = append(plan, SlideInput{Key: k, Pos: p, DelayMs: math.Round(rng.Float64()*16*100) / 100})
	}
	return plan, nil
}

// planKey stands for what explorer.renderNow compares to skip a render (less
// the chart's size, which the inputs do not change): the config by its
// address, which is equal exactly when the configs are (urlquery's round
// trip), and the axis and range.
func planKey(s *page.State) string {
	return page.ConfigQuery(s.Cfg, nil).Encode() + "|" + s.Axis + "|" +
		strconv.FormatInt(s.From, 10) + "|" + strconv.FormatInt(s.To, 10)
}
