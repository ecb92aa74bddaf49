package ui

import (
	"net/url"
	"strconv"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/page"
)

// BenchmarkEdit is a slider's input as the explorer takes it natively:
// the page model's reducer, the address and the render (the sweep is
// reused: only the swept field's own value moves).
func BenchmarkEdit(b *testing.B) {
	c := newExplorer()
	c.Query = url.Values{}
	d := app.NewClientTester(c)
	defer d.Close()
	for i := 0; b.Loop(); i++ {
		send(d, c, page.Edit{Kind: page.EditText, Key: "rows", Text: strconv.Itoa(60000 + i%1000)})
	}
	if c.banner.Message != "" {
		b.Fatal(c.banner.Message)
	}
}

// BenchmarkEditState is the state's part of an edit: the reducer (and
// its normalization) and the address the explorer writes.
func BenchmarkEditState(b *testing.B) {
	list, err := page.Presets()
	if err != nil {
		b.Fatal(err)
	}
	s := page.New()
	for i := 0; b.Loop(); i++ {
		s.Apply(page.Edit{Kind: page.EditText, Key: "rows", Text: strconv.Itoa(60000 + i%1000)}, list)
		open := page.Decode(s.Query(list), list)
		_ = page.EncodeAddress(open.Query(list))
	}
}

// BenchmarkEditArt is BenchmarkEdit under ART's code (issue 24), and
// BenchmarkEditSweep{Seeds,Art} an edit that sweeps again (the width
// moves, so the chart's sweep along rows is not reused) under each.
func BenchmarkEditArt(b *testing.B) { benchEdit(b, url.Values{"profile": {"art"}}, "rows", 60000) }

func BenchmarkEditSweepSeeds(b *testing.B) { benchEdit(b, url.Values{}, "hidden_size", 2000) }

func BenchmarkEditSweepArt(b *testing.B) {
	benchEdit(b, url.Values{"profile": {"art"}}, "hidden_size", 2000)
}

func benchEdit(b *testing.B, q url.Values, key string, from int) {
	c := newExplorer()
	c.Query = q
	d := app.NewClientTester(c)
	defer d.Close()
	for i := 0; b.Loop(); i++ {
		send(d, c, page.Edit{Kind: page.EditText, Key: key, Text: strconv.Itoa(from + i%64)})
	}
	if c.banner.Message != "" {
		b.Fatal(c.banner.Message)
	}
}
