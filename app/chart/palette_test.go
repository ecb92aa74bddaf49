package chart

import (
	"strings"
	"testing"
)

// TestPalette: Light is the chart without a palette, byte for byte (the
// goldens pin it), and Dark draws none of Light's ground or ink.
func TestPalette(t *testing.T) {
	t.Parallel()
	in := goldenChart(t, 64)
	plain, err := SVG(in, 720, 360)
	if err != nil {
		t.Fatal(err)
	}
	in.Palette = &Light
	light, err := SVG(in, 720, 360)
	if err != nil || string(light) != string(plain) {
		t.Fatalf("the Light palette draws another chart than no palette (err %v)", err)
	}
	in.Palette = &Dark
	dark, err := SVG(in, 720, 360)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, colour string
		want         bool
	}{
		{"Dark's ground", `fill="#141A23"`, true},
		{"Dark's ink", `fill="#E4E8EE"`, true},
		{"Dark's candidate", `stroke="#5CB0F2"`, true},
		{"Light's ink", `#222222`, false},
		{"Light's ground", `fill="#FFFFFF"`, false},
		{"Light's candidate", `#0072B2`, false},
	} {
		if got := strings.Contains(string(dark), c.colour); got != c.want {
			t.Errorf("%s (%s) in the dark chart: %v, want %v", c.name, c.colour, got, c.want)
		}
	}
}
