package estimator

// A map (docs/model.md §10) is many sweeps side by side: a column of flips along
// y at each of a few values of x, for both revisions.

// DefaultColumns is the number of columns of a map when none is given.
const DefaultColumns = 128

// MaxColumns bounds a map's columns.
const MaxColumns = 1024

// MapAxis is one axis of a map and its range, both ends included.
type MapAxis struct {
	Axis string `json:"axis"`
	From int64  `json:"from"`
	To   int64  `json:"to"`
}

// MapRevision is one revision along one column: Start is the decision at
// y = y.From (Invalid, written "invalid", when the config is invalid
// there), then the flips along y as a sweep reports them.
type MapRevision struct {
	Start Decision `json:"start"`
	Flips []Flip   `json:"flips"`
}

// MapColumn is the sweep along y at one x.
type MapColumn struct {
	X         int64       `json:"x"`
	Baseline  MapRevision `json:"baseline"`
	Candidate MapRevision `json:"candidate"`
}

// Rev is the column's revision rev.
func (c *MapColumn) Rev(rev Revision) *MapRevision {
	if rev == BaselineRev {
		return &c.Baseline
	}
	return &c.Candidate
}

// MapResult is the map of docs/model.md §10.
type MapResult struct {
	X       MapAxis     `json:"x"`
	Y       MapAxis     `json:"y"`
	Columns []MapColumn `json:"columns"`
}

// Mapper computes a map column by column, so that a caller can spread the
// work over time (the page can compute it between frames). Build it once per
// config and axes with NewMapper; Column prices one column without
// allocating, but for the flips it returns.
type Mapper struct {
	x, y    MapAxis
	xf      *Field    // x's field
	base    Revisions // both revisions as resolved; each column Sets x in both
	ys      *Sweeper  // sweeps y from the column's revisions
	columns []int64   // the x of each column
	grid    []int64   // the y grid, the same in every column
	// The grid's decisions and each revision's messages, and each
	// revision's flips, reused from column to column.
	ds    [][2]Decision
	msgs  [][2]string
	flips [2][]Flip
	// When x is the budget and y is not, each grid point's result is
	// remembered from column to column (see acrossColumns): across without
	// a baseline of its own, acrossRev, one per revision, with one.
	across    []pathEntry[Point]
	acrossRev [][2]pathEntry[PointRevision]
}

// NewMapper validates c, both axes and their ranges, and the number of
// columns. The errors name "x.axis", "x.from", "x.to", "y.axis", "y.from",
// "y.to" and "columns". A range is checked as a sweep checks it
// (0..2^62, from <= to): a value outside the field's own range is an
// invalid point of the map, as it is of a sweep, not an error.
func NewMapper(c Config, x, y MapAxis, columns int) (*Mapper, error) {
	var errs ErrorList
	rv, err := c.ResolveRevisions()
	if err != nil {
		return nil, err
	}
	axisErrors := func(name string, a MapAxis) *Sweeper {
		s, err := rv.Sweeper(a.Axis)
		if err != nil {
			for _, e := range FieldErrors(err) {
				errs = append(errs, &Error{Field: name + "." + e.Field, Message: e.Message})
			}
		}
		if err := CheckRange(a.From, a.To, 2); err != nil {
			for _, e := range FieldErrors(err) {
				errs = append(errs, &Error{Field: name + "." + e.Field, Message: e.Message})
			}
		}
		return s
	}
	xs := axisErrors("x", x)
	ys := axisErrors("y", y)
	if xs != nil && ys != nil && x.Axis == y.Axis {
		errs = append(errs, &Error{Field: "y.axis", Message: "must differ from x.axis, got " + clip(y.Axis) + " for both"})
	}
	if columns < 2 || columns > MaxColumns {
		errs = append(errs, &Error{Field: "columns", Message: "must be in 2.." + Group(MaxColumns) + ", got " + Group(int64(columns))})
	}
	if len(errs) > 0 {
		return nil, errs
	}
	m := &Mapper{x: x, y: y, xf: xs.field, base: rv, ys: ys}
	m.columns = Grid(x.From, x.To, columns)
	m.grid = Grid(y.From, y.To, DefaultPoints)
	m.ds = make([][2]Decision, len(m.grid))
	m.msgs = make([][2]string, len(m.grid))
	if xs.budget && !ys.budget {
		if rv.Own {
			m.acrossRev = make([][2]pathEntry[PointRevision], len(m.grid))
			for j := range m.acrossRev {
				m.acrossRev[j] = [2]pathEntry[PointRevision]{emptyPath[PointRevision](), emptyPath[PointRevision]()}
			}
		} else {
			m.across = make([]pathEntry[Point], len(m.grid))
			for j := range m.across {
				m.across[j] = emptyPath[Point]()
			}
		}
	}
	return m, nil
}

// Len is the number of columns: columns, or fewer when the x range holds
// fewer integers (repeated values are dropped).
func (m *Mapper) Len() int { return len(m.columns) }

// X is the x of column i: x.From + floor(i (x.To - x.From) / (columns - 1)).
func (m *Mapper) X(i int) int64 { return m.columns[i] }

// Column computes column i: it sets x in both revisions as a sweep along
// x sets it (Revisions.Set: an override of x does not hold, and rows
// carries each revision's projected_rows and target_rows), then sweeps y over its range
// exactly as Sweep does, on the same grid of DefaultPoints with the same
// bisection, invalid points included. So column i equals Sweep along y of
// the config at X(i), each revision valid or invalid on its own. When X(i) is outside its field's range every point
// of the column is invalid. The flips are appended to flips (which may be
// nil) and the column's revisions are slices of it, so a caller that
// keeps one buffer allocates only as it grows; the columns share it, so
// reuse it (flips[:0]) only once they are no longer needed.
func (m *Mapper) Column(i int, flips []Flip) (MapColumn, []Flip) {
	if flips == nil {
		flips = make([]Flip, 0, 16) // an empty list, not null, in JSON
	}
	x := m.columns[i]
	col := MapColumn{X: x}
	if f := m.xf; x < f.Min || x > f.Max {
		none := flips[len(flips):len(flips):len(flips)]
		col.Baseline = MapRevision{Start: Invalid, Flips: none}
		col.Candidate = MapRevision{Start: Invalid, Flips: none}
		return col, flips
	}
	m.rebase(x)
	for j, y := range m.grid {
		if m.across != nil || m.acrossRev != nil {
			m.ds[j], m.msgs[j] = m.acrossColumns(j, y)
		} else {
			m.ds[j], m.msgs[j] = m.ys.decisions(y, [2]bool{true, true})
		}
	}
	m.flips[0], m.flips[1] = m.flips[0][:0], m.flips[1][:0]
	for j := 1; j < len(m.grid); j++ {
		if m.ds[j-1] != m.ds[j] {
			m.bisect(m.grid[j-1], m.grid[j], m.ds[j-1], m.ds[j], m.msgs[j-1], m.msgs[j])
		}
	}
	for rev := BaselineRev; rev <= CandidateRev; rev++ {
		start := len(flips)
		flips = append(flips, m.flips[rev]...)
		r := col.Rev(rev)
		r.Start = m.ds[0][rev]
		r.Flips = flips[start:len(flips):len(flips)]
	}
	return col, flips
}

// rebase moves the y sweeper to the column at x: x Set in both revisions.
// Set fails here only on x outside its field's range, which Column checks
// first; a limit relating two fields (in_use_bytes above capacity_bytes,
// say), which y may lift, is checked at every point along y.
func (m *Mapper) rebase(x int64) {
	rv := m.base
	_ = rv.Set(m.x.Axis, x)
	m.ys.rebase(&rv)
}

// acrossColumns is the decisions and messages at grid point j, y, of the
// current column when x is capacity_bytes or in_use_bytes: from one column
// to the next only the budget moves at a given y, so, as along a sweep of
// the budget (sweeppath.go), the previous column's result at y holds
// wherever the available bytes fall in the range over which its ladder
// takes the same path. With a baseline of its own each revision is
// remembered by its own available bytes.
func (m *Mapper) acrossColumns(j int, y int64) (d [2]Decision, msg [2]string) {
	s := m.ys
	if m.acrossRev != nil {
		for rev := BaselineRev; rev <= CandidateRev; rev++ {
			if bad := s.at(y, rev); bad != nil {
				d[rev], msg[rev] = Invalid, bad.Error()
				continue
			}
			e := &m.acrossRev[j][rev]
			if avail := s.sweepRev(rev).cur.available(); avail < e.lo || avail > e.hi {
				e.lo, e.hi = s.priceRev(rev, &e.v)
			}
			d[rev], msg[rev] = e.v.Decision, e.v.Error
		}
		return d, msg
	}
	if bad := s.at(y, 1); bad != nil {
		return [2]Decision{Invalid, Invalid}, [2]string{bad.Error(), bad.Error()}
	}
	e := &m.across[j]
	if avail := s.cand.cur.available(); avail < e.lo || avail > e.hi {
		e.lo, e.hi = s.price(&e.v, y)
	}
	return [2]Decision{e.v.Rev[0].Decision, e.v.Rev[1].Decision}, [2]string{e.v.Rev[0].Error, e.v.Rev[1].Error}
}

// decisions are the decisions at x of the revisions in want, each Invalid
// with its message where its config is invalid. Without a baseline of its
// own both are priced together whatever want says; with one only those
// wanted are priced (the others are left Invalid with no message).
func (s *Sweeper) decisions(x int64, want [2]bool) (d [2]Decision, msg [2]string) {
	if s.base.Own {
		var pr PointRevision
		for rev := BaselineRev; rev <= CandidateRev; rev++ {
			d[rev] = Invalid
			if want[rev] {
				s.pointRev(x, rev, &pr)
				d[rev], msg[rev] = pr.Decision, pr.Error
			}
		}
		return d, msg
	}
	pt := s.Point(x)
	return [2]Decision{pt.Rev[0].Decision, pt.Rev[1].Decision}, [2]string{pt.Rev[0].Error, pt.Rev[1].Error}
}

// bisect is Sweeper.bisect for both revisions at once: the revisions whose
// decisions differ between a and b (a < b) are bisected together, so a
// point that both would price is priced once. Each revision meets the
// same points, and finds the same flips in the same order, as its own
// bisection.
func (m *Mapper) bisect(a, b int64, da, db [2]Decision, ma, mb [2]string) {
	if b-a == 1 {
		for rev := BaselineRev; rev <= CandidateRev; rev++ {
			if da[rev] != db[rev] {
				msg := ma[rev]
				if msg == "" {
					msg = mb[rev]
				}
				m.flips[rev] = append(m.flips[rev], Flip{FromDecision: da[rev], ToDecision: db[rev], Last: a, First: b, Message: msg})
			}
		}
		return
	}
	mid := a + (b-a)/2
	dm, mm := m.ys.decisions(mid, [2]bool{da[0] != db[0], da[1] != db[1]})
	// Each half carries on the revisions that differ across it, among
	// those that differ across [a, b]: the others are masked, as their own
	// bisection would not enter that half.
	left, right := dm, dm
	for rev := BaselineRev; rev <= CandidateRev; rev++ {
		if da[rev] == db[rev] {
			left[rev], right[rev] = da[rev], db[rev]
		}
	}
	if left != da {
		m.bisect(a, mid, da, left, ma, mm)
	}
	if right != db {
		m.bisect(mid, b, right, db, mm, mb)
	}
}

// firstError is the message of the map's first point, when it is invalid.
func (m *Mapper) firstError() string {
	x := m.columns[0]
	if f := m.xf; x < f.Min || x > f.Max {
		return (&Error{Field: f.Path, Message: f.Allowed() + ", got " + Group(x)}).Error()
	}
	m.rebase(x)
	return m.ys.Point(m.y.From).Error
}

// Result assembles the map of the columns computed. It fails when every
// point the map evaluated is invalid (each column starts invalid and
// never flips): a map with nothing to show says why, with the message of
// its first point.
func (m *Mapper) Result(columns []MapColumn) (MapResult, error) {
	res := MapResult{X: m.x, Y: m.y, Columns: columns}
	if res.AllInvalid() {
		return res, &Error{Field: "map", Message: "every point is invalid, as at " + m.x.Axis + " = " + Group(m.x.From) +
			", " + m.y.Axis + " = " + Group(m.y.From) + ": " + m.firstError()}
	}
	return res, nil
}

// AllInvalid reports whether every point of the map is invalid.
func (r *MapResult) AllInvalid() bool {
	for i := range r.Columns {
		c := &r.Columns[i]
		if c.Baseline.Start != Invalid || len(c.Baseline.Flips) > 0 || c.Candidate.Start != Invalid || len(c.Candidate.Flips) > 0 {
			return false
		}
	}
	return true
}

// Map computes the map of docs/model.md §10: columns values of x spread over
// [x.From, x.To] (see Mapper.X), and at each a sweep of both revisions
// along y over [y.From, y.To]. Errors: the errors of NewMapper, and an
// *Error for the field "map" when every point is invalid.
func Map(c Config, x, y MapAxis, columns int) (MapResult, error) {
	m, err := NewMapper(c, x, y, columns)
	if err != nil {
		return MapResult{}, err
	}
	cols := make([]MapColumn, m.Len())
	var flips []Flip
	for i := range cols {
		cols[i], flips = m.Column(i, flips)
	}
	return m.Result(cols)
}
