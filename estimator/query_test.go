package estimator

import (
	"net/url"
	"testing"
)

func TestQueryRoundTrip(t *testing.T) {
	c := Default()
	c.Model.VocabSize = 64000
	c.Request.Rows = 100000
	c.Request.ProjectedRows = Int64(90000)
	c.Request.Outputs = Outputs{TopK: 20, Logits: true}
	c.FC2.OutputWidth = Int64(1024)
	c.Budget.InUseBytes = 63 << 30
	c.Changes.GDNEarlyRelease = false
	q := EncodeQuery(c)
	back, errs := DecodeQuery(q)
	if len(errs) > 0 {
		t.Fatalf("errors %v for %s", errs, q.Encode())
	}
	if MarshalConfigString(back) != MarshalConfigString(c) {
		t.Errorf("round trip through %s:\n%s\nwant\n%s", q.Encode(), MarshalConfig(back), MarshalConfig(c))
	}
	if got := EncodeQuery(Default()).Encode(); got != "" {
		t.Errorf("default config encodes as %q, want an empty query", got)
	}
}

// TestQueryUnsetOptional: "auto" puts an optional field back to its
// default, so a link can undo a preset's explicit width.
func TestQueryUnsetOptional(t *testing.T) {
	c, errs := DecodeQuery(url.Values{"output_width": {"auto"}, "projected_rows": {""}})
	if len(errs) > 0 || c.FC2.OutputWidth != nil || c.Request.ProjectedRows != nil {
		t.Errorf("got %+v %+v, errors %v", c.FC2, c.Request, errs)
	}
}

// TestQueryKeepsGoodValues: one bad value never costs the others.
func TestQueryKeepsGoodValues(t *testing.T) {
	c, errs := DecodeQuery(url.Values{"rows": {"0"}, "vocab_size": {"64000"}, "topk": {"abc"}, "grad": {"false"}})
	if len(errs) != 2 {
		t.Fatalf("errors %v, want rows and topk", errs)
	}
	if c.Model.VocabSize != 64000 || c.Request.Grad || c.Request.Rows != Default().Request.Rows {
		t.Errorf("config %+v", c)
	}
}

func FuzzDecodeQuery(f *testing.F) {
	f.Add("rows=0&vocab_size=64%2C000&projected_rows=99999999&topk=abc")
	f.Add("in_use_bytes=1&capacity_bytes=0&target_rows=5")
	f.Add(EncodeQuery(Default()).Encode())
	f.Add("b.capacity_bytes=85020000000&b.changes=fc2_known_storage&b.output_width=auto&in_use_bytes=90000000000")
	f.Add("b.rows=100&projected_rows=200&b.changes=rows,&b.gpu=1&b.grad=maybe")
	f.Add("b.changes=")
	f.Add("obs=64902~94780217856~cold~x&obs=0~1&obs=5~9~&obs=1~1125899906842625&rows=10")
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		c, _ := DecodeQuery(q)
		if _, err := c.ResolveRevisions(); err != nil {
			t.Fatalf("DecodeQuery(%q) returned an invalid config: %v", raw, err)
		}
		// What it returns encodes and decodes to itself.
		back, errs := DecodeQuery(EncodeQuery(c))
		if len(errs) > 0 || MarshalConfigString(back) != MarshalConfigString(c) {
			t.Fatalf("re-encoding %q: errors %v", raw, errs)
		}
	})
}
