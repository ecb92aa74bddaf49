package estimator

import (
	"io"
	"math/bits"
	"strings"
	"sync"
)

// MaxChangedLines bounds a replay result's list of changed lines.
const MaxChangedLines = 1000

// maxShapeMemo bounds the replay's memo of priced shapes: past it the memo
// starts afresh, so memory stays bounded whatever the workload holds. A
// variable so that a test can make it small.
var maxShapeMemo = 1 << 16

// ReplayResult is the replay of docs/model.md §9: how a workload's requests are
// decided by the baseline and by the candidate.
type ReplayResult struct {
	Requests    int64        `json:"requests"` // sum of count
	Lines       int64        `json:"lines"`    // request lines
	Rows        int64        `json:"rows"`     // sum of rows x count
	Ignored     []string     `json:"ignored"`
	Transitions []Transition `json:"transitions"`
	// ChangedRequests and ChangedRows count the requests whose decision
	// differs (rows: rows x count).
	ChangedRequests int64 `json:"changed_requests"`
	ChangedRows     int64 `json:"changed_rows"`
	// ChildrenChangedRequests counts requests that both revisions split,
	// into a different number of children.
	ChildrenChangedRequests int64 `json:"children_changed_requests"`
	// ExtraForwards is the cost of a hold in forwards: the sum, over the
	// requests both revisions run (neither refuses; a refused request runs
	// none, and ChangedRequests counts it), of count x (the candidate's
	// children - the baseline's). Negative when the candidate runs fewer.
	ExtraForwards int64 `json:"extra_forwards"`
	// BaselineSplitRows and CandidateSplitRows are the rows (rows x
	// count) each revision runs split, in more than one child.
	BaselineSplitRows  int64 `json:"baseline_split_rows"`
	CandidateSplitRows int64 `json:"candidate_split_rows"`
	// Changed lists the first MaxChangedLines lines whose decision or
	// children differ, in file order.
	Changed []ReplayLine `json:"changed"`
	// ChangedLines counts every such line (Changed holds the first ones);
	// ChildrenChangedRows is ChildrenChangedRequests in rows. Neither is
	// part of the JSON of docs/model.md §9.
	ChangedLines        int64 `json:"-"`
	ChildrenChangedRows int64 `json:"-"`
	// Placements counts, for the baseline then the candidate, where ART's
	// GPU placement path ran the requests (docs/model.md §15.7); nil when
	// neither revision takes that path.
	Placements *[2]PlacementCounts `json:"placements,omitempty"`
}

// Transition is how many requests (and their rows) the baseline decides
// one way and the candidate another.
type Transition struct {
	Baseline  Decision `json:"baseline"`
	Candidate Decision `json:"candidate"`
	Requests  int64    `json:"requests"`
	Rows      int64    `json:"rows"`
}

// ReplayLine is one workload line with both revisions' decisions.
// Children is 1 when admitted, k when split, 0 when refused.
type ReplayLine struct {
	Line              int64    `json:"line"`
	ID                string   `json:"id"`
	Rows              int64    `json:"rows"`
	Count             int64    `json:"count"`
	Baseline          Decision `json:"baseline"`
	Candidate         Decision `json:"candidate"`
	BaselineChildren  int64    `json:"baseline_children"`
	CandidateChildren int64    `json:"candidate_children"`
}

// Changed reports whether the revisions decide the line differently, or
// split it into a different number of children.
func (l *ReplayLine) Changed() bool {
	return l.Baseline != l.Candidate || l.BaselineChildren != l.CandidateChildren
}

// revision is what one side of the comparison prices: its resolved config
// and its variant of the three changes. shared: the other revision has the
// same config (only the variant differs), so its lower bound is the same.
// prefix names the revision in a line's error ("" for the candidate, and
// for a baseline that is the config with the changes off).
type revision struct {
	r      Resolved
	v      variant
	shared bool
	prefix string
}

// priceError names an error of pricing the revision's line: an overflow
// by the fields of its product, prefixed as the revision's fields are; a
// term's failure, which no override can fix (the terms are the config's),
// as Estimate names it: "terms[i] (name)" for the candidate, and "baseline"
// with the term in the message for a baseline of its own.
func (rev *revision) priceError(err *Error) *Error {
	if rev.prefix != "" && strings.HasPrefix(err.Field, "terms[") {
		return revisionError(err, 0, true)
	}
	return &Error{Field: rev.prefix + err.Field, Message: err.Message}
}

// replayRevisions resolves c into the baseline and the candidate, each
// with its own resolved config when c has a baseline of its own (docs/model.md
// §11); applyShape then sets each line's fields in each revision from that
// revision's own N, P and T. Without one both price c, with the baseline's
// variant (its changes off) and the candidate's.
func replayRevisions(c Config) ([2]revision, error) {
	rv, err := c.ResolveRevisions()
	if err != nil {
		return [2]revision{}, err
	}
	var out [2]revision
	for i := range out {
		out[i] = revision{r: rv.Rev[i], v: rv.variant(Revision(i)), shared: !rv.Own}
	}
	if rv.Own {
		out[0].prefix = baselinePrefix
	}
	return out, nil
}

// applyShape sets dst to base with the line's fields: rows, sequence_rows
// and in_use_bytes where the line gives them; projected_rows and
// target_rows where it gives them, else scaled as a sweep of rows scales
// them, ceil(rows x P / N) and ceil(rows x T / N) from base's own N, P
// and T (so a line without rows keeps P and T). It then checks the limits
// that relate fields (projected_rows <= rows, target_rows <=
// projected_rows, in_use_bytes <= capacity_bytes): a line is validated as
// a config. The line's own ranges are checked before (price).
func applyShape(dst, base *Resolved, s *Shape) *Error {
	*dst = *base
	if v := s[colRows]; v >= 0 {
		dst.N = v
	}
	if v := s[colSequenceRows]; v >= 0 {
		dst.S = v
	}
	if v := s[colProjectedRows]; v >= 0 {
		dst.P = v
	} else {
		dst.P = ceilDiv(dst.N*base.P, base.N) // both < 2^31
	}
	if v := s[colTargetRows]; v >= 0 {
		dst.T = v
	} else {
		dst.T = ceilDiv(dst.N*base.T, base.N)
	}
	if v := s[colInUseBytes]; v >= 0 {
		dst.InUse = v
		dst.inUseSet = true // a line's own in_use_bytes wins (§14.4, case 3)
	}
	if err := dst.crossCheck(); err != nil {
		return FieldErrors(err)[0]
	}
	return nil
}

// lineDecisions is what a shape prices to, per revision.
type lineDecisions struct {
	decision [2]Decision
	children [2]int64
	place    [2]Placement // the GPU placement path's (art_gpu_result.go)
}

// Replayer replays a workload one line at a time (Add), so that a caller
// can read and price it in slices. Memory is bounded by the distinct
// shapes (and at most maxShapeMemo of them): lines that differ only in
// count or id are priced once.
type Replayer struct {
	revs  [2]revision
	cur   [2]Resolved  // the line's config, per revision
	eval  [2]evaluator // one per revision, keeping its sized pieces
	memo  map[Shape]lineDecisions
	res   ReplayResult
	trans [3][3][2]int64 // requests, rows, by baseline then candidate
	err   error
}

// NewReplayer validates c.
func NewReplayer(c Config) (*Replayer, error) {
	revs, err := replayRevisions(c)
	if err != nil {
		return nil, err
	}
	return &Replayer{revs: revs, memo: map[Shape]lineDecisions{}}, nil
}

// price decides shape s in both revisions, as Estimate would decide the
// config with the line's fields: an invalid line, or one whose bytes
// overflow (the lower bound included, as Estimate prices it), is an error.
func (p *Replayer) price(s *Shape) (lineDecisions, *Error) {
	var d lineDecisions
	for c, v := range s { // the reader checked these; a caller's own lines too
		if v != -1 {
			if err := shapeFields[c].checkValue(v); err != nil {
				return d, err
			}
		}
	}
	for _, i := range [2]int{1, 0} { // the candidate's error first
		rev, cur, e := &p.revs[i], &p.cur[i], &p.eval[i]
		if err := applyShape(cur, &rev.r, s); err != nil {
			return d, &Error{Field: rev.prefix + err.Field, Message: err.Message}
		}
		e.reset(cur)
		pl := e.decide(rev.v)
		if i == 1 || !rev.shared {
			e.lowerBound(rev.v) // its overflow is an error of the line
		}
		if err := e.c.err; err != nil {
			return d, rev.priceError(err)
		}
		d.decision[i], d.place[i] = pl.decision, pl.gpuPlace
		if pl.decision != Refuse {
			d.children[i] = pl.k
		}
	}
	return d, nil
}

// Add prices one line and adds it to the result. The first error (a
// *LineError naming the line and the field) stops the replay: Add returns
// it again on every later call.
func (p *Replayer) Add(l *WorkloadLine) (ReplayLine, error) {
	if p.err != nil {
		return ReplayLine{}, p.err
	}
	out, err := p.add(l)
	if err != nil {
		p.err = err
	}
	return out, err
}

func (p *Replayer) add(l *WorkloadLine) (ReplayLine, error) {
	count := l.Count
	if count == 0 {
		count = 1 // a WorkloadLine built without a count stands for one request
	} else if err := countField.checkValue(count); err != nil {
		return ReplayLine{}, &LineError{Line: l.Line, Field: err.Field, Message: err.Message}
	}
	d, ok := p.memo[l.Shape]
	if !ok {
		var err *Error
		if d, err = p.price(&l.Shape); err != nil {
			return ReplayLine{}, &LineError{Line: l.Line, Field: err.Field, Message: err.Message}
		}
		if len(p.memo) >= maxShapeMemo {
			clear(p.memo)
		}
		p.memo[l.Shape] = d
	}
	rows := l.Shape[colRows]
	if rows < 0 {
		rows = p.revs[1].r.N // the config's (the candidate's) rows
	}
	out := ReplayLine{Line: l.Line, ID: l.ID, Rows: rows, Count: count,
		Baseline: d.decision[0], Candidate: d.decision[1],
		BaselineChildren: d.children[0], CandidateChildren: d.children[1]}
	weight := rows * count // both < 2^31
	res := &p.res
	var ok1, ok2 bool
	if res.Requests, ok1 = addInt64(res.Requests, count); !ok1 {
		return out, &LineError{Line: l.Line, Field: "count", Message: "the workload's requests (the sum of count) overflow int64"}
	}
	if res.Rows, ok2 = addInt64(res.Rows, weight); !ok2 {
		return out, &LineError{Line: l.Line, Field: "rows", Message: "the workload's rows (the sum of rows x count) overflow int64"}
	}
	// Every sum below is at most Requests or Rows: no overflow.
	res.Lines++
	t := &p.trans[out.Baseline][out.Candidate]
	t[0] += count
	t[1] += weight
	if out.Baseline != out.Candidate {
		res.ChangedRequests += count
		res.ChangedRows += weight
	} else if out.BaselineChildren != out.CandidateChildren {
		res.ChildrenChangedRequests += count
		res.ChildrenChangedRows += weight
	}
	if out.Baseline != Refuse && out.Candidate != Refuse {
		res.ExtraForwards += count * (out.CandidateChildren - out.BaselineChildren)
	}
	p.countPlacements(&d, count)
	if out.Baseline == Split {
		res.BaselineSplitRows += weight
	}
	if out.Candidate == Split {
		res.CandidateSplitRows += weight
	}
	if out.Changed() {
		res.ChangedLines++
		if len(res.Changed) < MaxChangedLines {
			res.Changed = append(res.Changed, out)
		}
	}
	return out, nil
}

func addInt64(a, b int64) (int64, bool) {
	s, carry := bits.Add64(uint64(a), uint64(b), 0)
	return int64(s), carry == 0 && s <= 1<<63-1
}

// Result is the replay of the lines added so far; ignored lists the
// workload's ignored columns.
func (p *Replayer) Result(ignored []string) ReplayResult {
	res := p.res
	if res.Placements != nil { // a copy: later lines must not change this result
		pl := *res.Placements
		res.Placements = &pl
	}
	res.Ignored = append([]string{}, ignored...)
	res.Changed = append([]ReplayLine{}, res.Changed...)
	res.Transitions = []Transition{}
	for b := Admit; b <= Refuse; b++ {
		for c := Admit; c <= Refuse; c++ {
			if t := p.trans[b][c]; t[0] > 0 {
				res.Transitions = append(res.Transitions, Transition{b, c, t[0], t[1]})
			}
		}
	}
	return res
}

// Replay reads a workload (docs/model.md §9) from r and replays it against both
// revisions of c. The first invalid line (a *LineError naming its line
// and field) makes the whole replay an error: nothing is reported from a
// workload that was not read whole. each, when not nil, is called with
// every line in file order (the command line writes them as CSV).
//
// Reading and parsing run in a goroutine of their own, a batch of lines
// ahead of the pricing (two cores halve a long replay's time); Replay
// returns only once that goroutine has stopped reading r.
func Replay(c Config, r io.Reader, each func(ReplayLine) error) (ReplayResult, error) {
	p, err := NewReplayer(c)
	if err != nil {
		return ReplayResult{}, err
	}
	w, err := NewWorkloadReader(r)
	if err != nil {
		return ReplayResult{}, err
	}
	const batches, batchLines = 4, 2048
	full := make(chan *lineBatch, batches)
	free := make(chan *lineBatch, batches)
	for i := 0; i < batches; i++ {
		free <- &lineBatch{lines: make([]WorkloadLine, batchLines)}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		defer close(full)
		for {
			var b *lineBatch
			select {
			case b = <-free:
			case <-done:
				return
			}
			b.n, b.err = 0, nil
			for b.n < len(b.lines) && b.err == nil {
				if err := w.Next(&b.lines[b.n]); err != nil {
					b.err = err
				} else {
					b.n++
				}
			}
			select {
			case full <- b:
			case <-done:
				return
			}
			if b.err != nil {
				return
			}
		}
	}()
	defer wg.Wait()
	defer close(done)
	for b := range full {
		for i := range b.lines[:b.n] {
			out, err := p.Add(&b.lines[i])
			if err != nil {
				return ReplayResult{}, err
			}
			if each != nil {
				if err := each(out); err != nil {
					return ReplayResult{}, err
				}
			}
		}
		if b.err == io.EOF {
			break
		}
		if b.err != nil {
			return ReplayResult{}, b.err
		}
		free <- b
	}
	return p.Result(w.Ignored()), nil
}

// lineBatch is a slice of a workload on its way from the reader to the
// replay: lines[:n], then err (io.EOF at the end) if reading stopped.
type lineBatch struct {
	lines []WorkloadLine
	n     int
	err   error
}
