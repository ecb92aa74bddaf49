package page

// Slice spreads long work over the browser's frames or tasks: it calls
// step, which does one unit (a map's column, a few hundred workload
// lines) and reports whether work remains, until the work is done or
// budgetMs has passed since the first call by now (the page's clock,
// browser.NowMs). The clock is read after each unit, so each slice does
// at least one and a slow unit overruns by at most itself. It reports
// whether the work is done; when not, the caller schedules the next
// slice once the browser has had its turn (input, paint).
//
// The map view, the Workload panel's replay and any other long job of
// the page slice their work with it, so a slider input never waits for a
// whole job.
func Slice(budgetMs float64, now func() float64, step func() (more bool)) (done bool) {
	start := now()
	for step() {
		if now()-start >= budgetMs {
			return false
		}
	}
	return true
}
