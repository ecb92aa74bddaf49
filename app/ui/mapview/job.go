package mapview

import (
	"headroom/app/ui/page"
	"headroom/estimator"
)

// mapJob computes one map column by column (estimator.Mapper), so the
// page can spread the work over animation frames (page.Slice): each frame
// computes a few columns within its budget and a slider input never waits
// for a whole map. A job is for one config and one set of axes (its key); a
// new key starts a new job and the old one is dropped.
type mapJob struct {
	key   string
	m     *estimator.Mapper
	cols  []estimator.MapColumn
	flips []estimator.Flip // the columns' flips, one buffer (see Mapper.Column)
	next  int              // the next column to compute
	res   estimator.MapResult
	err   error // NewMapper's or Result's; the job is done
	done  bool
}

// newMapJob starts the map of cfg over the state's axes. A config or axes
// NewMapper refuses give a job that is done at once, with the error.
func newMapJob(key string, cfg estimator.Config, ms *page.MapState) *mapJob {
	x, y, n := ms.Axes()
	j := &mapJob{key: key}
	m, err := estimator.NewMapper(cfg, x, y, n)
	if err != nil {
		j.err, j.done = err, true
		return j
	}
	j.m = m
	j.cols = make([]estimator.MapColumn, m.Len())
	return j
}

// column computes the next column, and the map once the last is done. It
// reports whether columns remain: page.Slice calls it until the slice's
// budget is spent.
func (j *mapJob) column() (more bool) {
	if j.done {
		return false
	}
	j.cols[j.next], j.flips = j.m.Column(j.next, j.flips)
	j.next++
	if j.next == len(j.cols) {
		j.res, j.err = j.m.Result(j.cols)
		j.done = true
	}
	return !j.done
}

// progress is the columns computed and the columns in all.
func (j *mapJob) progress() (done, all int) { return j.next, len(j.cols) }
