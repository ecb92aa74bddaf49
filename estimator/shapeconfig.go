package estimator

// Config returns c with the line's shape set as the replay sets it
// (docs/model.md §9): rows, sequence_rows and in_use_bytes where the shape gives
// them; projected_rows and target_rows where it gives them, else scaled
// from c's resolved N, P and T as a sweep of rows scales them. The result
// resolves to the config the replay priced the line with, so the
// explorer can show that one request: projected_rows is left unset
// (= rows) and target_rows unset (= projected_rows) where that is the
// value, so a loaded line carries no more fields than it needs.
//
// A baseline of its own (Config.Baseline) keeps its overrides; the replay
// applies the shape to each revision's own config, so for a baseline that
// overrides a request field the two may differ. An invalid result (say
// projected_rows above rows) is an error naming the field.
func (s Shape) Config(c Config) (Config, error) {
	r, err := c.Resolve()
	if err != nil {
		return c, err
	}
	out := c
	rows := r.N
	if v := s[colRows]; v >= 0 {
		rows = v
		out.Request.Rows = v
	}
	if v := s[colSequenceRows]; v >= 0 {
		out.Request.SequenceRows = v
	}
	p := s[colProjectedRows]
	if p < 0 {
		p = ceilDiv(rows*r.P, r.N) // both < 2^31
	}
	t := s[colTargetRows]
	if t < 0 {
		t = ceilDiv(rows*r.T, r.N)
	}
	out.Request.ProjectedRows, out.Request.TargetRows = nil, nil
	if p != rows {
		out.Request.ProjectedRows = &p
	}
	if t != p {
		out.Request.TargetRows = &t
	}
	if v := s[colInUseBytes]; v >= 0 {
		out.Budget.InUseBytes = v
	}
	if _, err := out.Resolve(); err != nil {
		return c, err
	}
	return out, nil
}
