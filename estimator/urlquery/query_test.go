package urlquery

import (
	"headroom/estimator"
	"net/url"
	"strconv"
	"testing"
)

func TestQueryRoundTrip(t *testing.T) {
	t.Parallel()
	c := estimator.Default()
	c.Model.VocabSize = 64000
	c.Request.Rows = 100000
	c.Request.ProjectedRows = estimator.Int64(90000)
	c.Request.Outputs = estimator.Outputs{TopK: 20, Logits: true}
	c.FC2.OutputWidth = estimator.Int64(1024)
	c.Budget.InUseBytes = 63 << 30
	c.Changes.GDNEarlyRelease = false
	q := Encode(c)
	back, errs := Decode(q)
	if len(errs) > 0 {
		t.Fatalf("errors %v for %s", errs, q.Encode())
	}
	if string(estimator.MarshalConfig(back)) != string(estimator.MarshalConfig(c)) {
		t.Errorf("round trip through %s:\n%s\nwant\n%s", q.Encode(), estimator.MarshalConfig(back), estimator.MarshalConfig(c))
	}
	if got := Encode(estimator.Default()).Encode(); got != "" {
		t.Errorf("default config encodes as %q, want an empty query", got)
	}
}

// TestQueryUnsetOptional: "auto" puts an optional field back to its
// default, so a link can undo a preset's explicit width.
func TestQueryUnsetOptional(t *testing.T) {
	t.Parallel()
	c, errs := Decode(url.Values{"output_width": {"auto"}, "projected_rows": {""}})
	if len(errs) > 0 || c.FC2.OutputWidth != nil || c.Request.ProjectedRows != nil {
		t.Errorf("got %+v %+v, errors %v", c.FC2, c.Request, errs)
	}
}

// TestQueryKeepsGoodValues: one bad value never costs the others.
func TestQueryKeepsGoodValues(t *testing.T) {
	t.Parallel()
	c, errs := Decode(url.Values{"rows": {"0"}, "vocab_size": {"64000"}, "topk": {"abc"}, "grad": {"false"}})
	if len(errs) != 2 {
		t.Fatalf("errors %v, want rows and topk", errs)
	}
	if c.Model.VocabSize != 64000 || c.Request.Grad || c.Request.Rows != estimator.Default().Request.Rows {
		t.Errorf("config %+v", c)
	}
}

func FuzzDecodeQuery(f *testing.F) {
	// Every field's key, and its baseline's, at both ends of its range and
	// one past: a plain go test runs them.
	for _, fd := range estimator.Fields() {
		for _, v := range []int64{fd.Min, fd.Max, fd.Max + 1} {
			n := strconv.FormatInt(v, 10)
			f.Add(fd.Key + "=" + n + "&b." + fd.Key + "=" + n)
		}
	}
	f.Add("rows=0&vocab_size=64%2C000&projected_rows=99999999&topk=abc")
	f.Add("in_use_bytes=1&capacity_bytes=0&target_rows=5")
	f.Add(Encode(estimator.Default()).Encode())
	f.Add("b.capacity_bytes=85020000000&b.changes=fc2_known_storage&b.output_width=auto&in_use_bytes=90000000000")
	f.Add("b.rows=100&projected_rows=200&b.changes=rows,&b.gpu=1&b.grad=maybe")
	f.Add("b.changes=")
	f.Add("obs=64902~94780217856~cold~x&obs=0~1&obs=5~9~&obs=1~1125899906842625&rows=10")
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		c, _ := Decode(q)
		if _, err := c.ResolveRevisions(); err != nil {
			t.Fatalf("Decode(%q) returned an invalid config: %v", raw, err)
		}
		// What it returns encodes and decodes to itself.
		back, errs := Decode(Encode(c))
		if len(errs) > 0 || string(estimator.MarshalConfig(back)) != string(estimator.MarshalConfig(c)) {
			t.Fatalf("re-encoding %q: errors %v", raw, errs)
		}
	})
}

// TestGroupedDigitsAccepted: a person may type 64,902 or 64_902.
func TestGroupedDigitsAccepted(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"64,902", "64_902", " 64902 ", "+64902", "64,9,02"} {
		cfg, errs := Decode(url.Values{"rows": {text}})
		if len(errs) > 0 || cfg.Request.Rows != 64902 {
			t.Errorf("rows=%q: rows %d, errors %v", text, cfg.Request.Rows, errs)
		}
	}
}
