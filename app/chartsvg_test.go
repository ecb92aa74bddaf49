package main

import (
	"bytes"
	"testing"

	"gonum.org/v1/plot/vg"

	"headroom/estimator"
)

func TestAppendPresentation(t *testing.T) {
	for _, c := range []struct{ style, want string }{
		{"fill:#FFFFFF", `fill="#FFFFFF"`},
		{"fill:none;stroke:#222222;stroke-width:0.5", `fill="none" stroke="#222222" stroke-width="0.5"`},
		{"fill:none;stroke:#D55E00;stroke-width:1.6;stroke-dasharray:5,3", `fill="none" stroke="#D55E00" stroke-width="1.6" stroke-dasharray="5,3"`},
		{"font-family:Liberation Sans;font-size:10px;fill:#222222",
			`font-family="Liberation Sans,Arial,Helvetica,sans-serif" font-size="10px" fill="#222222"`},
		{"font-family:Other Sans", `font-family="Other Sans"`},
		{" fill : #000 ;; stroke:none;", `fill="#000" stroke="none"`},
		{"", ""},
	} {
		if got := string(appendPresentation(nil, []byte(c.style))); got != c.want {
			t.Errorf("style %q: got %s, want %s", c.style, got, c.want)
		}
	}
}

// TestChartHasNoStyleAttribute: the server's Content-Security-Policy
// refuses inline styles, so no chart may carry one, whatever it shows.
func TestChartHasNoStyleAttribute(t *testing.T) {
	for _, axis := range []string{"rows", "vocab_size", "capacity_bytes"} {
		cfg := estimator.Default()
		from, to := defaultRange(axis, cfg)
		in, err := buildChartInput(cfg, axis, from, to, 128)
		if err != nil {
			t.Fatal(err)
		}
		for _, size := range [][2]float64{{960, 540}, {320, 240}} {
			svg, err := renderChartSVG(in, vg.Length(size[0]), vg.Length(size[1]))
			if err != nil {
				t.Fatal(err)
			}
			for _, bad := range []string{` style=`, "\tstyle=", "\nstyle=", "<style"} {
				i := bytes.Index(svg, []byte(bad))
				if i < 0 {
					continue
				}
				t.Errorf("%s at %v: the SVG has a style: ...%s...", axis, size, svg[max(0, i-40):min(len(svg), i+60)])
			}
		}
	}
}
