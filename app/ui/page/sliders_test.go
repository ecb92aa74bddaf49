package page

import (
	"net/url"
	"testing"

	"headroom/estimator"
)

// TestSliders: every slider has a key of its own, a field of the
// registry or one of the page's own keys, and a span.
func TestSliders(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, sp := range Sliders() {
		if seen[sp.Key] {
			t.Errorf("slider %s twice", sp.Key)
		}
		seen[sp.Key] = true
		if _, ok := estimator.FieldByKey(sp.Key); !ok && sp.Key != KeyInUseGiB && sp.Key != KeyLoRARank && sp.Key != KeyReserve {
			t.Errorf("slider %s is no field", sp.Key)
		}
		if sp.Key != KeyInUseGiB && !(sp.Min < sp.Max) {
			t.Errorf("slider %s spans %v..%v", sp.Key, sp.Min, sp.Max)
		}
	}
	if len(seen) < 20 {
		t.Errorf("%d sliders", len(seen))
	}
}

// TestSliderValue: a set field shows its value, a default its resolved
// one (auto), the in-use bytes their GiB.
func TestSliderValue(t *testing.T) {
	t.Parallel()
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	s := Decode(url.Values{"rows": {"12345"}, "in_use_bytes": {"3221225472"}}, list)
	r, err := s.Cfg.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		key      string
		v        float64
		auto, ok bool
	}{
		{"rows", 12345, false, true},
		{"output_width", float64(r.O), true, s.Cfg.FC2.OutputWidth == nil},
		{KeyInUseGiB, 3, false, true},
		{"no_such_slider", 0, false, false},
	} {
		v, auto, ok := s.SliderValue(tt.key)
		if v != tt.v || auto != tt.auto || ok != tt.ok {
			t.Errorf("SliderValue(%s) = %v, %v, %v; want %v, %v, %v", tt.key, v, auto, ok, tt.v, tt.auto, tt.ok)
		}
	}
}
