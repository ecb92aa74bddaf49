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

// BenchmarkEditArt is BenchmarkEdit under ART's code, and
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
// and the render: one decode, one validation and one Repair and
// Estimate per edit (an edit's one normalization, page.State.Settled);
// this holds the page to it.
func TestEditSteps(t *testing.T) {
	for _, tc := range []struct {
		name string
		q    url.Values
		key  string
		from int
		// the page's own Resolves: the controls' auto values, once per
		// config, and FollowRange's check of a new model
		resolves int64
	}{
		{"rows", url.Values{}, "rows", 60000, 1},
		{"rows-art", url.Values{"profile": {"art"}}, "rows", 60000, 1},
		{"hidden", url.Values{}, "hidden_size", 2000, 2},
		{"rows-terms", url.Values{"term": {"a~head~candidate~2 * D"}}, "rows", 60000, 1},
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
			if want := (page.Steps{Decode: 1, Validate: 2, Repair: 1, Estimate: 1, FitSweep: 1, Resolve: tc.resolves}); got != want {
				t.Errorf("one edit of %s costs %+v; want %+v", tc.key, got, want)
			}
			if c.banner.Message != "" {
				t.Fatal(c.banner.Message)
			}
		})
	}
}

// TestAddressWithoutDecoding: after every edit, the address the explorer
// writes and the state it draws from, now taken from the settled state
// without decoding its address (page.State.OpenedBy), are what decoding
// the address again gives, as the explorer once did: the same address,
// config, axis, range and validity.
func TestAddressWithoutDecoding(t *testing.T) {
	c := newExplorer()
	c.Query = url.Values{}
	d := app.NewClientTester(c)
	defer d.Close()
	edits := []page.Edit{
		{Kind: page.EditText, Key: "rows", Text: "60000"},
		{Kind: page.EditText, Key: "rows", Text: "64,902"},
		{Kind: page.EditText, Key: "rows", Text: "abc"},
		{Kind: page.EditText, Key: "rows", Text: "70000"},
		{Kind: page.EditText, Key: "projected_rows", Text: "900000"},
		{Kind: page.EditText, Key: "projected_rows", Text: "auto"},
		{Kind: page.EditText, Key: page.KeyInUseGiB, Text: "0.5"},
		{Kind: page.EditText, Key: page.KeyInUseGiB, Text: "12,000,000,000 B"},
		{Kind: page.EditText, Key: page.KeyInUseGiB, Text: "9000"},
		{Kind: page.EditCommit, Key: page.KeyInUseGiB},
		{Kind: page.EditText, Key: page.KeyInUseGiB, Text: "10"},
		{Kind: page.EditMenu, Key: page.KeyPreset, Text: "mixtral-8x7b"},
		{Kind: page.EditMenu, Key: page.KeyGPU, Text: page.GPUH100},
		{Kind: page.EditMenu, Key: page.KeyAxis, Text: "vocab_size"},
		{Kind: page.EditText, Key: page.KeyFrom, Text: "500"},
		{Kind: page.EditText, Key: page.KeyTo, Text: "10"},
		{Kind: page.EditFit},
		{Kind: page.EditText, Key: "hidden_size", Text: "4096"},
		{Kind: page.EditCheck, Key: "topk", On: true},
		{For: page.ForTerms, Kind: page.EditTermAdd},
		{For: page.ForCompare, Kind: page.EditText, Key: page.BaselineKeyPrefix + "rows", Text: "x"},
		{For: page.ForCompare, Kind: page.EditText, Key: page.BaselineKeyPrefix + "rows", Text: "1000"},
		{Kind: page.EditText, Key: "rows", Text: "80000"},
	}
	trusted := 0 // edits whose state was taken without decoding its address
	for i, e := range edits {
		send(d, c, e)
		if c.banner.Message != "" {
			t.Fatalf("edit %d (%+v): %s", i, e, c.banner.Message)
		}
		q := c.state.Query(c.list)
		if c.state.OpenedBy(q.Encode()) {
			trusted++
		}
		open := page.Decode(q, c.list)
		want := page.EncodeAddress(open.Query(c.list))
		got, shown := c.address()
		if got != want {
			t.Errorf("edit %d (%+v): the address is %q; decoding it again gives %q", i, e, got, want)
		}
		if !shown.Cfg.Equal(open.Cfg) || shown.Axis != open.Axis || shown.From != open.From || shown.To != open.To ||
			shown.Valid != open.Valid || shown.CfgOK != open.CfgOK {
			t.Errorf("edit %d (%+v): the state shown differs from the one its address opens: valid %v/%v, range %d..%d/%d..%d",
				i, e, shown.Valid, open.Valid, shown.From, shown.To, open.From, open.To)
		}
	}
	if trusted < len(edits)-4 { // the commit and the two Compare edits are decoded
		t.Errorf("only %d of %d edits were taken without decoding their address", trusted, len(edits))
	}
	t.Logf("%d of %d edits taken without decoding their address", trusted, len(edits))
}
