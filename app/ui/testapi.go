package ui

// The browser tests' view of the page's insides (package app/e2e, which
// builds and serves the whole page): the two things they cannot read from
// app/ui/page or app/ui/widget because they need the panel's slider specs.
// The page itself never calls these.

import (
	"net/url"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
)

// SliderKeys lists the control key of every slider, in the panel's order
// (the range input of key k has id slider-k, its field input-k).
func SliderKeys() []string {
	var keys []string
	for _, s := range allSliders() {
		keys = append(keys, s.key)
	}
	return keys
}

// ThumbPosition is the position (0 to 1,000) at which the page puts the
// range input of control key for the state a query describes: what the
// browser tests compare each knob with. ok is false for a key that has
// no slider.
func ThumbPosition(q url.Values, key string) (pos int, ok bool) {
	list, err := page.Presets()
	if err != nil {
		return 0, false
	}
	s := page.Decode(q, list)
	c := &controls{View: controlViewOf(&s, list)}
	for _, sp := range allSliders() {
		if sp.key != key {
			continue
		}
		if key == page.KeyInUseGiB { // its end follows the capacity (controls.Render)
			sp = sliderSpec{key: page.KeyInUseGiB, min: 0, max: c.View.CapacityGiB}
		}
		sl := c.slider(sp).(*widget.Slider)
		return sl.Position(sl.Value), true
	}
	return 0, false
}
