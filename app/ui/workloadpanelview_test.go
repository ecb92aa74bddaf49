package ui

import (
	"net/url"
	"strings"
	"testing"

	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// TestExplorerLoadShape: a workload line's shape sets the request and
// in-use fields as the replay priced them, and keeps the rest of the page.
func TestExplorerLoadShape(t *testing.T) {
	c := newExplorer()
	c.load(url.Values{"rows": {"200000"}, "in_use_bytes": {"68451041280"}, "vocab_size": {"128256"}, "axis": {"vocab_size"}})
	base := c.state.Cfg
	shape := estimator.Shape{226703, 8192, -1, -1, 40 << 30}
	if err := c.loadShape(base, shape); err != nil {
		t.Fatal(err)
	}
	want, _ := shape.Config(base)
	if got := urlquery.Encode(c.state.Cfg).Encode(); got != urlquery.Encode(want).Encode() {
		t.Errorf("config %s, want %s", got, urlquery.Encode(want).Encode())
	}
	if c.state.Axis != "vocab_size" || c.state.Cfg.Model.VocabSize != 128256 || !c.state.Valid {
		t.Errorf("the rest of the page changed: axis %s, vocab %d, valid %v", c.state.Axis, c.state.Cfg.Model.VocabSize, c.state.Valid)
	}
	if err := c.loadShape(base, estimator.Shape{100, -1, 200, -1, -1}); err == nil || !strings.Contains(err.Error(), "projected_rows") {
		t.Errorf("projected_rows above rows: %v", err)
	}
}
