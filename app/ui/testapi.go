package ui

// The browser tests' view of the page (app/e2e_*_test.go, package main,
// which build and serve the whole page): the names they drive the page
// by, and the page's own reading of an address, so that a test can say
// natively what a tab must show. The page itself never calls these.

import (
	"net/url"

	"headroom/app/ui/page"
	"headroom/app/ui/widget"
	"headroom/estimator"
)

// SliderSteps is the last position of every range input (the first is 0).
const SliderSteps = widget.Steps

// SliderKeys lists the control key of every slider, in the panel's order
// (the range input of key k has id slider-k, its field input-k).
func SliderKeys() []string {
	var keys []string
	for _, s := range allSliders() {
		keys = append(keys, s.key)
	}
	return keys
}

// PresetIDs lists the preset menu's entries.
func PresetIDs() ([]string, error) {
	list, err := page.Presets()
	if err != nil {
		return nil, err
	}
	ids := make([]string, len(list))
	for i, p := range list {
		ids[i] = p.ID
	}
	return ids, nil
}

// Opened is what the page opens for an address: its config and whether
// it can be drawn.
type Opened struct {
	Config estimator.Config
	// Valid: the config and the range can be priced and swept; the page
	// draws them.
	Valid bool
	// ConfigOK: the config prices, whatever the range. A page opened on a
	// wrong range (from=500&to=10) draws the default range of this config
	// when it has drawn nothing before; otherwise an invalid state keeps
	// the last valid render.
	ConfigOK bool
	// Errors maps each marked control's error key to its message.
	Errors map[string]string
}

// OpenAddress decodes an address query as the page does when it opens
// it (page.Decode).
func OpenAddress(q url.Values) (Opened, error) {
	list, err := page.Presets()
	if err != nil {
		return Opened{}, err
	}
	s := page.Decode(q, list)
	errs := make(map[string]string, len(s.Errs))
	for k, v := range s.Errs {
		errs[k] = v
	}
	return Opened{Config: s.Cfg, Valid: s.Valid, ConfigOK: s.CfgOK, Errors: errs}, nil
}
