package estimator

import "math"

// The points of a sweep: both revisions priced at one x of the axis, as
// Estimate would price them (sweep.go walks the axis; sweeppath.go keeps
// the budget's paths between points).

// Point is everything the chart and the CSV show at one x.
type Point struct {
	X int64
	// Error is non-empty when neither revision can be priced at X (the
	// candidate's message). Without a baseline of its own the revisions
	// are one config, valid or invalid together.
	Error string
	// AvailableBytes and LowerBoundBytes are the candidate's: both
	// revisions' without a baseline of its own (see PointRevision).
	AvailableBytes  int64
	LowerBoundBytes int64
	Rev             [2]PointRevision // baseline, candidate
}

// PointRevision is one revision's numbers at a point.
type PointRevision struct {
	Decision      Decision // Invalid when Error is set
	Error         string   // non-empty: the revision's config is invalid at X
	Children      int64    // 1 admitted, k split, 0 refused
	ChildRows     int64
	RequiredBytes int64 // of the chosen plan (of the last rung when refused)
	// The whole request's bytes, before any split: its ephemeral stages,
	// its retained bytes and its required bytes.
	WholeStages   [NumStages]int64
	WholeRetained int64
	WholeRequired int64
	// The revision's own available and lower-bound bytes.
	AvailableBytes  int64
	LowerBoundBytes int64
	// WholeTermStages are the stages of the terms of place stage, by term
	// index in the config (0 for other terms and those the revision does
	// not hold). The built-in stages and WholeRetained include the terms
	// placed in them.
	WholeTermStages [MaxTerms]int64
	// Placement is where the GPU placement path put the plan (docs/model.md
	// §15); PlacementNone on the estimator path and when refused.
	Placement Placement `json:",omitempty"`
}

// Point prices both revisions at x, as Estimate would (less the tensor
// breakdown).
func (s *Sweeper) Point(x int64) Point {
	var pt Point
	s.point(&pt, x)
	return pt
}

// point fills *pt (zero) with Point(x), in place: a Point is large, and a
// chart's grid is written straight into its slice.
func (s *Sweeper) point(pt *Point, x int64) {
	pt.X = x
	if s.base.Own {
		s.pointRev(x, 0, &pt.Rev[0])
		s.pointRev(x, 1, &pt.Rev[1])
		c := &pt.Rev[1]
		pt.AvailableBytes, pt.LowerBoundBytes = c.AvailableBytes, c.LowerBoundBytes
		if pt.Rev[0].Error != "" && c.Error != "" {
			pt.Error = c.Error
		}
		return
	}
	if bad := s.at(x, 1); bad != nil {
		*pt = invalidPoint(x, bad.Error())
		return
	}
	if !s.budget {
		s.price(pt, x)
		return
	}
	avail := s.cand.cur.available()
	if hit := s.paths.find(avail); hit != nil {
		*pt = *hit
		pt.X = x
		if pt.Error == "" {
			pt.AvailableBytes, pt.Rev[0].AvailableBytes, pt.Rev[1].AvailableBytes = avail, avail, avail
		}
		return
	}
	lo, hi := s.price(pt, x)
	s.paths.keep(lo, hi, pt)
}

// price fills *pt with both revisions of the one config (no baseline of
// its own) priced at x, once at has set it. It returns the available bytes
// lo..hi over which every comparison with the budget came out as it did
// (evaluator.fits), so over which the point holds with only its available
// bytes changed.
func (s *Sweeper) price(pt *Point, x int64) (lo, hi int64) {
	*pt = Point{X: x}
	sr := &s.cand
	r := &sr.cur // kept in s, so that the evaluator's pointer does not escape per point
	e := &sr.eval
	if sr.sameSizes && sr.primed {
		e.r, e.c = r, calc{} // the pieces it sized still hold
	} else {
		e.reset(r)
		sr.primed = true
	}
	pt.AvailableBytes = r.available()
	e.availLo, e.availHi = 0, math.MaxInt64
	for rev := BaselineRev; rev <= CandidateRev; rev++ {
		priceRevision(e, s.base.variant(rev), &pt.Rev[rev])
	}
	pt.LowerBoundBytes = e.lowerBound(s.base.variant(1))
	lowerBase := pt.LowerBoundBytes
	if r.Art { // art's bound is each revision's own
		lowerBase = e.lowerBound(s.base.variant(0))
	}
	if e.c.err != nil {
		*pt = invalidPoint(x, e.c.err.Error())
		return e.availLo, e.availHi
	}
	for rev := BaselineRev; rev <= CandidateRev; rev++ {
		pt.Rev[rev].AvailableBytes, pt.Rev[rev].LowerBoundBytes = pt.AvailableBytes, pt.LowerBoundBytes
	}
	pt.Rev[0].LowerBoundBytes = lowerBase
	return e.availLo, e.availHi
}

// invalidPoint is a point where the one config of both revisions is
// invalid.
func invalidPoint(x int64, msg string) Point {
	pt := Point{X: x, Error: msg}
	for rev := BaselineRev; rev <= CandidateRev; rev++ {
		pt.Rev[rev].Decision, pt.Rev[rev].Error = Invalid, msg
	}
	return pt
}

// pointRev prices revision rev of a baseline of its own at x, in its own
// config, into pr.
//
// Along the budget each revision remembers its own paths, by its own
// available bytes: with its own capacity, in-use or reserve, a revision's
// available bytes differ from the other's at every x, and only its own
// decide its ladder.
func (s *Sweeper) pointRev(x int64, rev Revision, pr *PointRevision) {
	if bad := s.at(x, rev); bad != nil {
		*pr = PointRevision{Decision: Invalid, Error: bad.Error()}
		return
	}
	if !s.budget {
		s.priceRev(rev, pr)
		return
	}
	sr := s.sweepRev(rev)
	avail := sr.cur.available()
	if hit := sr.paths.find(avail); hit != nil {
		*pr = *hit
		if pr.Error == "" {
			pr.AvailableBytes = avail
		}
		return
	}
	lo, hi := s.priceRev(rev, pr)
	sr.paths.keep(lo, hi, pr)
}

// priceRev prices revision rev of a baseline of its own in its config as
// at has set it, into pr, and returns the range of its available bytes
// over which the result holds (see price).
func (s *Sweeper) priceRev(rev Revision, pr *PointRevision) (lo, hi int64) {
	*pr = PointRevision{}
	sr := s.sweepRev(rev)
	r := &sr.cur
	e := &sr.eval
	if sr.sameSizes && sr.primed {
		e.r, e.c = r, calc{}
	} else {
		e.reset(r)
		sr.primed = true
	}
	e.availLo, e.availHi = 0, math.MaxInt64
	priceRevision(e, s.base.variant(rev), pr)
	pr.AvailableBytes = r.available()
	pr.LowerBoundBytes = e.lowerBound(s.base.variant(rev))
	if e.c.err != nil {
		*pr = PointRevision{Decision: Invalid, Error: revisionError(e.c.err, rev, true).Error()}
	}
	return e.availLo, e.availHi
}

// priceRevision fills pr with the decision of e's config priced as v.
func priceRevision(e *evaluator, v variant, pr *PointRevision) {
	if e.r.Art {
		artPriceRevision(e, v, pr)
		return
	}
	whole := e.rungPlan(1, v)
	pr.WholeStages = e.pc.stage
	if e.pc.nterms > 0 {
		pr.WholeTermStages = e.pc.tstage
	}
	pr.WholeRetained = e.pc.retained
	pr.WholeRequired = whole.required
	pl := e.decideFrom(v, whole)
	pr.Decision, pr.ChildRows, pr.RequiredBytes = pl.decision, pl.largest, pl.required
	if pl.decision != Refuse {
		pr.Children = pl.k
	}
}

// AppendPoints appends Point(x) for each x of xs to dst.
func (s *Sweeper) AppendPoints(dst []Point, xs []int64) []Point {
	for _, x := range xs {
		dst = append(dst, Point{})
		s.point(&dst[len(dst)-1], x)
	}
	return dst
}
