package page

import "headroom/estimator"

// Memo is the last answer of a costly function of a config (and a key
// beside it, such as an axis), kept for the next ask of the same: an edit
// asks for a fitted range several times, and every render of the same
// config asks again for its resolved values. It holds one answer,
// compared by Config.Equal on a Clone. Its owner is whoever asks (the
// state, the explorer), not the package: nothing outlives them, and two
// owners never share one. It takes no lock: an owner's edits and renders
// run one at a time on the page's goroutine. A nil Memo remembers
// nothing.
type Memo[K comparable, V any] struct {
	ok  bool
	key K
	cfg estimator.Config
	val V
}

// Get is the answer for key and cfg: the remembered one when it is of an
// Equal config and the same key, else compute's, remembered.
func (m *Memo[K, V]) Get(key K, cfg estimator.Config, compute func() V) V {
	if m != nil && m.ok && m.key == key && m.cfg.Equal(cfg) {
		return m.val
	}
	v := compute()
	if m != nil {
		m.ok, m.key, m.cfg, m.val = true, key, cfg.Clone(), v
	}
	return v
}

// Forget empties the memo: the next Get computes.
func (m *Memo[K, V]) Forget() {
	if m != nil {
		*m = Memo[K, V]{}
	}
}

// memos are a state's memos, shared by the states an edit derives from
// it (Settled's, a Clone): each asks about the same few configs.
type memos struct {
	fit      Memo[string, flipAnswer]       // lastFlip, by axis
	fitE     Memo[struct{}, fitEAnswer]     // FitExpertParallel
	resolved Memo[struct{}, resolvedAnswer] // Resolved
}

// flipAnswer is lastFlip's answer.
type flipAnswer struct {
	last int64
	ok   bool
}

// fitEAnswer is FitExpertParallel's answer.
type fitEAnswer struct {
	e  int64
	w  estimator.Bytes
	ok bool
}

// resolvedAnswer is Resolved's answer.
type resolvedAnswer struct {
	r   estimator.Resolved
	err error
}
