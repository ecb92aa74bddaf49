package page

import (
	"testing"

	"headroom/estimator"
)

// TestMemo: a memo answers again for an Equal config and the same key,
// computes for another key or config, and a nil memo always computes.
func TestMemo(t *testing.T) {
	t.Parallel()
	calls := 0
	compute := func() int { calls++; return calls }
	var m Memo[string, int]
	cfg := estimator.Default()
	if m.Get("rows", cfg, compute) != 1 || m.Get("rows", cfg.Clone(), compute) != 1 {
		t.Errorf("an Equal config computed again: %d calls", calls)
	}
	if m.Get("vocab_size", cfg, compute) != 2 {
		t.Errorf("another key answered from the memo")
	}
	other := cfg
	other.Request.Rows++
	if m.Get("vocab_size", other, compute) != 3 {
		t.Errorf("another config answered from the memo")
	}
	m.Forget()
	if m.Get("vocab_size", other, compute) != 4 {
		t.Errorf("a forgotten memo answered")
	}
	var none *Memo[string, int]
	if none.Get("rows", cfg, compute) != 5 || none.Get("rows", cfg, compute) != 6 {
		t.Errorf("a nil memo remembered")
	}
}
