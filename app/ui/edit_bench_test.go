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
	before := page.CountedSteps()
	for i := 0; b.Loop(); i++ {
		send(d, c, page.Edit{Kind: page.EditText, Key: "rows", Text: strconv.Itoa(60000 + i%1000)})
	}
	reportSteps(b, before)
	if c.banner.Message != "" {
		b.Fatal(c.banner.Message)
	}
}

// reportSteps reports the page model's steps per op since before
// (page.Steps): deterministic figures beside the noisy times.
func reportSteps(b *testing.B, before page.Steps) {
	d := page.CountedSteps().Sub(before)
	n := float64(b.N)
	b.ReportMetric(float64(d.Decode)/n, "decodes/op")
	b.ReportMetric(float64(d.Validate)/n, "validates/op")
	b.ReportMetric(float64(d.Repair)/n, "repairs/op")
	b.ReportMetric(float64(d.Estimate)/n, "estimates/op")
	b.ReportMetric(float64(d.FitSweep)/n, "fitsweeps/op")
}

// BenchmarkEditState is the state's part of an edit: the reducer (and
// its normalization) and the address the explorer writes.
func BenchmarkEditState(b *testing.B) {
	list, err := page.Presets()
	if err != nil {
		b.Fatal(err)
	}
	s := page.New()
	before := page.CountedSteps()
	for i := 0; b.Loop(); i++ {
		s.Apply(page.Edit{Kind: page.EditText, Key: "rows", Text: strconv.Itoa(60000 + i%1000)}, list)
		q := s.Query(list) // as explorer.address: the settled state is the one its address opens
		if !s.OpenedBy(q.Encode()) {
			open := page.Decode(q, list)
			q = open.Query(list)
		}
		_ = page.EncodeAddress(q)
	}
	reportSteps(b, before)
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
	before := page.CountedSteps()
	for i := 0; b.Loop(); i++ {
		send(d, c, page.Edit{Kind: page.EditText, Key: key, Text: strconv.Itoa(from + i%64)})
	}
	reportSteps(b, before)
	if c.banner.Message != "" {
		b.Fatal(c.banner.Message)
	}
}

// TestEditSteps records what one slider edit costs the page model, in
// calls (page.Steps), as the explorer takes it: the reducer, the address
// and the render. Issue 23 ("normalize once per edit") asked for one
// decode, one validation and one Repair and Estimate per edit; this
// holds the page to it.
func TestEditSteps(t *testing.T) {
	for _, tc := range []struct {
		name string
		q    url.Values
		key  string
		from int
	}{
		{"rows", url.Values{}, "rows", 60000},
		{"rows-art", url.Values{"profile": {"art"}}, "rows", 60000},
		{"hidden", url.Values{}, "hidden_size", 2000},
		{"rows-terms", url.Values{"term": {"a~head~candidate~2 * D"}}, "rows", 60000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newExplorer()
			c.Query = tc.q
			d := app.NewClientTester(c)
			defer d.Close()
			send(d, c, page.Edit{Kind: page.EditText, Key: tc.key, Text: strconv.Itoa(tc.from - 1)})
			before := page.CountedSteps()
			send(d, c, page.Edit{Kind: page.EditText, Key: tc.key, Text: strconv.Itoa(tc.from)})
			got := page.CountedSteps().Sub(before)
			t.Logf("one edit of %s: %+v", tc.key, got)
			// The typed state's Validate and the decoded state's, which
			// reuses its Repair and Estimate; one fit, of the new config.
			got.FitAsk = 0 // how often the memo answers is its business (logged above)
			if want := (page.Steps{Decode: 1, Validate: 2, Repair: 1, Estimate: 1, FitSweep: 1}); got != want {
				t.Errorf("one edit of %s costs %+v; want %+v", tc.key, got, want)
			}
			if c.banner.Message != "" {
				t.Fatal(c.banner.Message)
			}
		})
	}
}
