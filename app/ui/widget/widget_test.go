package widget

import (
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
)

func TestSliderScale(t *testing.T) {
	for _, s := range []Slider{
		{Min: 1, Max: 1 << 22, Log: true, Step: 1},
		{Min: 0, Max: 1 << 22, Log: true, Step: 1},
		{Min: 0, Max: 64, Step: 1},
		{Min: 0, Max: 143.5, Step: 0.25, Decimal: true},
	} {
		if got := s.ValueAt(0); got != s.Min {
			t.Errorf("%+v: valueAt(0) = %v", s, got)
		}
		if got := s.ValueAt(Steps); got < s.Max-s.Step || got > s.Max {
			t.Errorf("%+v: valueAt(end) = %v", s, got)
		}
		prev := s.Min - 1
		for pos := 0; pos <= Steps; pos += 10 {
			v := s.ValueAt(pos)
			if v < prev {
				t.Fatalf("%+v: not monotone at %d", s, pos)
			}
			prev = v
		}
		// The thumb of a value sends back about that value.
		for _, v := range []float64{s.Min, 3, 10, 64, 100, 4096, 64902, s.Max} {
			if v < s.Min || v > s.Max {
				continue
			}
			back := s.ValueAt(s.Position(v))
			if tol := max(s.Step, v/100); back < v-tol || back > v+tol {
				t.Errorf("%+v: valueAt(position(%v)) = %v", s, v, back)
			}
		}
	}
	p2 := Slider{Min: 1, Max: 8, Log: true, Pow2: true, Step: 1}
	for pos := 0; pos <= Steps; pos += 50 {
		switch v := p2.ValueAt(pos); v {
		case 1, 2, 4, 8:
		default:
			t.Errorf("pow2 slider sends %v", v)
		}
	}
	if got := (&Slider{Min: 0, Max: 10}).Position(50); got != Steps {
		t.Errorf("a value past the end puts the thumb at %d", got)
	}
}

func TestToggleAndMenuRender(t *testing.T) {
	tg := &Toggle{Key: "gdn_early_release", Label: "gdn_early_release", Doc: "why", Href: "/web/seeds/gdn_early_release.txt", Link: "seed text", Checked: true}
	d := app.NewClientTester(tg)
	defer d.Close()
	if err := app.TestMatch(tg, app.TestUIDescriptor{Path: app.TestPath(0, 0, 0),
		Expected: app.Input().Type("checkbox").ID("check-gdn_early_release").Checked(true).OnChange(noEvent)}); err != nil {
		t.Error(err)
	}
	if err := app.TestMatch(tg, app.TestUIDescriptor{Path: app.TestPath(0, 1, 1), // the doc and its space are one text node
		Expected: app.A().Href("/web/seeds/gdn_early_release.txt").Target("_blank").Rel("noopener").OnClick(noEvent)}); err != nil {
		t.Error(err)
	}
	m := &Menu{ID: page.KeyGPU, Label: "GPU", Selected: page.GPUH100, Options: []Option{{Value: page.GPUH200, Label: "H200"}, {Value: page.GPUH100, Label: "H100"}}}
	d2 := app.NewClientTester(m)
	defer d2.Close()
	if err := app.TestMatch(m, app.TestUIDescriptor{Path: app.TestPath(0, 1, 1),
		Expected: app.Option().Value(page.GPUH100).Text("H100").Selected(true)}); err != nil {
		t.Error(err)
	}
}

// noEvent stands for a handler: TestMatch checks that one is set.
func noEvent(app.Context, app.Event) {}

// TestKeyStep: arrow keys did nothing in a slider's number field. Up and
// Down step it as they step the range input; Left and Right stay the
// caret's in the field and step the range input.
func TestKeyStep(t *testing.T) {
	for _, tc := range []struct {
		key         string
		isRange     bool
		up, stepped bool
	}{
		{"ArrowUp", false, true, true},
		{"ArrowDown", false, false, true},
		{"ArrowLeft", false, false, false},
		{"ArrowRight", false, false, false},
		{"ArrowRight", true, true, true},
		{"ArrowLeft", true, false, true},
		{"ArrowUp", true, true, true},
		{"a", true, false, false},
	} {
		up, ok := keyStep(tc.key, tc.isRange)
		if up != tc.up || ok != tc.stepped {
			t.Errorf("keyStep(%q, range %v) = %v, %v; want %v, %v", tc.key, tc.isRange, up, ok, tc.up, tc.stepped)
		}
	}
}
