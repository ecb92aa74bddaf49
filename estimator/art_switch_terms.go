package estimator

import "strconv"

// The three switches written as terms under the art profile
// (docs/model.md §13.13): on a revision with the switch off, the terms
// SwitchTerms returns price every request exactly as the switch on does,
// along every axis. They are the proof that a term can say what a real
// change says, and the page's "write as terms" starts a reviewer from them.

// SwitchTerms returns the terms that make a revision of c with switch
// (head_eager_workspace, fc2_known_storage or gdn_early_release) off price
// as that revision with it on, under the art profile; none when the switch
// changes nothing for c (no stock head, no known metadata; the GDN switch
// never changes ART's price). Each term is the candidate's; set its
// revision to write the change on the baseline.
func SwitchTerms(c Config, change string) ([]Term, error) {
	probe := c
	probe.Terms, probe.Profile, probe.Baseline = nil, ProfileArt, nil
	r, err := probe.Resolve()
	if err != nil {
		return nil, err
	}
	switch change {
	case "head_eager_workspace":
		return r.eagerHeadTerms(), nil
	case "fc2_known_storage":
		return r.knownFC2Terms(), nil
	case "gdn_early_release":
		return nil, nil
	}
	return nil, &Error{Field: "changes", Message: "must be one of head_eager_workspace, fc2_known_storage, gdn_early_release, got " + strconv.Quote(clip(change))}
}

// eagerHeadTerms: ART's current head (M95) in place of the one before it
// (M51), §13.4's table. The statistics' workspace is 7 chunk buffers and
// the index vectors TB; the logits' 3 buffers; the rejection bound's
// target part is 2 buffers instead of 3 for grad logprobs. Where the head
// projects no rows (no stock head, or logprobs alone without targets)
// the switch changes nothing.
func (r *Resolved) eagerHeadTerms() []Term {
	o := r.Outputs
	stats := o.Logprobs || o.TopK > 0
	if !r.art.stockHead || !stats && !o.Logits || stats && o.TopK == 0 && !o.Logits && r.T == 0 {
		return nil
	}
	if !stats {
		return []Term{{Name: "eager_head", Place: "head", Mode: "replace", Bytes: "3 * D"}}
	}
	// TB = 128 h + 36 min(h q, n) (l + k) + 32 n l + 4 n k g.
	tb := "128 * h + 36 * min(h * q, n)"
	switch {
	case o.Logprobs && o.TopK > 0:
		tb += " * (1 + k) + 32 * n + 4 * n * k * g"
	case o.Logprobs:
		tb += " + 32 * n"
	default:
		tb += " * k + 4 * n * k * g"
	}
	ts := []Term{{Name: "eager_head", Place: "head", Mode: "replace", Bytes: "7 * D + " + tb}}
	if r.Grad && o.Logprobs {
		ts = append(ts, Term{Name: "eager_head_bound", Place: "head_bound", Mode: "replace", Bytes: "max(Db, 2 * Dt)"})
	}
	return ts
}

// knownFC2Terms: with the LoRA input metadata known, ART's MoE features
// are I + 3O (and 2O + 2I more with a fused FC1) instead of the fallback's
// 2O: 2 x r x (I + O) more bytes (6 x r x (I + O) fused) wherever the MoE
// coefficient is priced: the MoE workspace, the checkpoint workspace (cf)
// and the GDN floor (gf). r is 0 where ART declines to price the MoE.
func (r *Resolved) knownFC2Terms() []Term {
	if !r.MetadataKnown {
		return nil
	}
	d := "2 * r * (I + O)"
	if r.art.fusedFC1 {
		d = "6 * r * (I + O)"
	}
	return []Term{
		{Name: "known_moe", Place: "moe", Bytes: d},
		{Name: "known_workspace", Place: "workspace", Bytes: "cf * " + d},
		{Name: "known_gdn_floor", Place: "gdn_floor", Bytes: "gf * " + d},
	}
}
