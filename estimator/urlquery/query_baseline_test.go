package urlquery

import (
	"net/url"
	"testing"
)

// TestQueryBaselineBadValues: a bad baseline value is reported and
// dropped; the rest of the link is kept.
func TestQueryBaselineBadValues(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		q     url.Values
		want  string
		keeps string // an override that survives
	}{
		{"bad number", url.Values{"b.rows": {"abc"}, "b.vocab_size": {"1000"}},
			`baseline.overrides.request.rows: is not an integer: "abc"; must be an integer in 1..2,147,483,647`, "model.vocab_size"},
		{"out of range", url.Values{"b.rows": {"0"}, "b.vocab_size": {"1000"}},
			"baseline.overrides.request.rows: must be an integer in 1..2,147,483,647, got 0", "model.vocab_size"},
		{"unknown key", url.Values{"b.gpu": {"h100"}, "b.vocab_size": {"1000"}},
			"baseline.overrides.gpu: is not a field a baseline can override", "model.vocab_size"},
		{"a change as an override", url.Values{"b.gdn_early_release": {"true"}, "b.vocab_size": {"1000"}},
			"baseline.overrides.gdn_early_release: is not a field a baseline can override; the baseline's toggles go in b.changes", "model.vocab_size"},
		{"unknown change", url.Values{"b.changes": {"fc2_known_storage,rows"}, "b.vocab_size": {"1000"}},
			`baseline.changes: is not a change: "rows"; allowed: head_eager_workspace, fc2_known_storage, gdn_early_release`, "model.vocab_size"},
		{"in use above the baseline's capacity", url.Values{"in_use_bytes": {"90000000000"}, "b.capacity_bytes": {"85020000000"}, "b.vocab_size": {"1000"}},
			"baseline.overrides.budget.in_use_bytes: must be in 0..capacity_bytes (85,020,000,000), got 90,000,000,000", "model.vocab_size"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, errs := Decode(tt.q)
			if errs.Error() != tt.want {
				t.Errorf("errors %q\nwant   %q", errs.Error(), tt.want)
			}
			if _, err := c.ResolveRevisions(); err != nil {
				t.Errorf("an invalid config: %v", err)
			}
			if _, ok := c.Baseline.Overrides[tt.keeps]; c.Baseline == nil || !ok {
				t.Errorf("lost %s: %+v", tt.keeps, c.Baseline)
			}
		})
	}
}
