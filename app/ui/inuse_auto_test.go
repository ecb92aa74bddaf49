package ui

import (
	"testing"

	"headroom/app/ui/page"
)

// TestInUseFieldShowsAuto: the in-use field showed 0 while 22.825 GiB of
// resident memory were counted. It shows "auto (...)" as the other
// computed fields do, its thumb at the computed figure; a typed figure
// wins, and emptying the field goes back to auto without an error.
func TestInUseFieldShowsAuto(t *testing.T) {
	list, err := page.Presets()
	if err != nil {
		t.Fatal(err)
	}
	s := page.New()
	k := page.KeyInUseGiB
	v := controlViewOf(&s, list)
	if v.Texts[k] != "" || v.Auto[k] != "auto (22.825)" || v.Values[k] < 22.8 || v.Values[k] > 22.9 {
		t.Errorf("default: text %q, auto %q, thumb %v", v.Texts[k], v.Auto[k], v.Values[k])
	}
	s.SetText(k, "80")
	s.Validate()
	v = controlViewOf(&s, list)
	if v.Texts[k] != "80" || v.Auto[k] != "" {
		t.Errorf("80 typed: text %q, auto %q", v.Texts[k], v.Auto[k])
	}
	s.SetText(k, "")
	s.Validate()
	v = controlViewOf(&s, list)
	if s.Cfg.Budget.InUseBytes != 0 || len(s.InputErr) != 0 || v.Auto[k] == "" {
		t.Errorf("emptied: in use %d, errors %v, auto %q", s.Cfg.Budget.InUseBytes, s.InputErr, v.Auto[k])
	}
	// Without a resident group the field is the figure, 0 included.
	s = page.New()
	s.Cfg.Resident = nil
	s.Validate()
	if v = controlViewOf(&s, list); v.Texts[k] != "0" || v.Auto[k] != "" {
		t.Errorf("no resident group: text %q, auto %q", v.Texts[k], v.Auto[k])
	}
}
