package estimator

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// The replay against a reference written straight from docs/model.md §9: every
// line is turned into a config by hand and priced with Estimate, and the
// result is summed without memo, in the most obvious way.

// refLine is a workload line as the test generates it: -1 where the line
// leaves the config's value.
type refLine struct {
	rows, seq, p, t, inUse, count int64
	id                            string
	extra                         string // an ignored column's cell
}

// refReplay is the reference: it returns the result, or the line number
// (in lineNos) of the first line Estimate refuses.
func refReplay(c Config, lines []refLine, lineNos []int64, ignored []string) (ReplayResult, int64) {
	r, err := c.Resolve()
	if err != nil {
		panic(err)
	}
	return refReplayBy(lines, lineNos, ignored, func(l refLine) (int64, [2]Outcome, bool) {
		lc := c
		rows := r.N
		if l.rows >= 0 {
			rows = l.rows
		}
		lc.Request.Rows = rows
		if l.seq >= 0 {
			lc.Request.SequenceRows = l.seq
		}
		p := (rows*r.P + r.N - 1) / r.N
		if l.p >= 0 {
			p = l.p
		}
		tt := (rows*r.T + r.N - 1) / r.N
		if l.t >= 0 {
			tt = l.t
		}
		lc.Request.ProjectedRows, lc.Request.TargetRows = Int64(p), Int64(tt)
		if l.inUse >= 0 {
			lc.Budget.InUseBytes = l.inUse
		}
		est, err := Estimate(lc)
		return rows, [2]Outcome{est.Baseline, est.Candidate}, err == nil
	})
}

// refReplayBy sums a replay whose lines decide prices: the line's rows,
// the baseline's and the candidate's outcomes (decision and children),
// and false when the line is invalid.
func refReplayBy(lines []refLine, lineNos []int64, ignored []string, decide func(refLine) (int64, [2]Outcome, bool)) (ReplayResult, int64) {
	res := ReplayResult{Ignored: ignored, Transitions: []Transition{}, Changed: []ReplayLine{}}
	type key struct{ b, c Decision }
	sums := map[key]*Transition{}
	for i, l := range lines {
		rows, est, ok := decide(l)
		if !ok {
			return ReplayResult{}, lineNos[i]
		}
		count := int64(1)
		if l.count >= 0 {
			count = l.count
		}
		children := func(o Outcome) int64 { return o.Children }
		rl := ReplayLine{Line: lineNos[i], ID: l.id, Rows: rows, Count: count,
			Baseline: est[0].Decision, Candidate: est[1].Decision,
			BaselineChildren: children(est[0]), CandidateChildren: children(est[1])}
		res.Requests += count
		res.Lines++
		res.Rows += rows * count
		k := key{rl.Baseline, rl.Candidate}
		if sums[k] == nil {
			sums[k] = &Transition{Baseline: k.b, Candidate: k.c}
		}
		sums[k].Requests += count
		sums[k].Rows += rows * count
		if rl.Baseline != rl.Candidate {
			res.ChangedRequests += count
			res.ChangedRows += rows * count
		} else if rl.Baseline == Split && rl.BaselineChildren != rl.CandidateChildren {
			res.ChildrenChangedRequests += count
			res.ChildrenChangedRows += rows * count
		}
		// The cost of a hold (§9): forwards over the requests neither
		// revision refuses, and the rows each revision splits.
		if rl.Baseline != Refuse && rl.Candidate != Refuse {
			res.ExtraForwards += count * (rl.CandidateChildren - rl.BaselineChildren)
		}
		if rl.Baseline == Split {
			res.BaselineSplitRows += rows * count
		}
		if rl.Candidate == Split {
			res.CandidateSplitRows += rows * count
		}
		if rl.Baseline != rl.Candidate || rl.BaselineChildren != rl.CandidateChildren {
			res.ChangedLines++
			if len(res.Changed) < 1000 {
				res.Changed = append(res.Changed, rl)
			}
		}
	}
	for _, b := range []Decision{Admit, Split, Refuse} {
		for _, cd := range []Decision{Admit, Split, Refuse} {
			if t := sums[key{b, cd}]; t != nil {
				res.Transitions = append(res.Transitions, *t)
			}
		}
	}
	return res, 0
}

// randomLines draws a workload around c's request: rows from a tenth to
// twice the config's, sometimes left to the config, the other fields
// given now and then. With invalid, a line may break a limit relating
// fields (projected_rows above rows, in_use_bytes above capacity).
func randomLines(rng *rand.Rand, c Config, n int, invalid bool) []refLine {
	r, _ := c.Resolve()
	var pool []refLine // repeated shapes, as real traffic has
	lines := make([]refLine, 0, n)
	for len(lines) < n {
		if len(pool) > 0 && rng.IntN(3) == 0 {
			l := pool[rng.IntN(len(pool))]
			l.count = oneOf(rng, -1, 1, between(rng, 1, 50))
			l.id = "r" + strconv.Itoa(len(lines))
			lines = append(lines, l)
			continue
		}
		l := refLine{rows: -1, seq: -1, p: -1, t: -1, inUse: -1, count: -1}
		if rng.IntN(6) != 0 {
			l.rows = max(1, between(rng, r.N/10, min(2*r.N, maxRows)))
		}
		rows := r.N
		if l.rows >= 0 {
			rows = l.rows
		}
		if rng.IntN(4) == 0 {
			l.seq = between(rng, max(1, rows/40), rows+10)
		}
		if rng.IntN(4) == 0 {
			l.p = between(rng, 1, rows)
			if rng.IntN(2) == 0 || (rows*r.T+r.N-1)/r.N > l.p {
				l.t = between(rng, 0, l.p) // else the scaled T would pass P
			}
		} else if rng.IntN(8) == 0 && r.T > 0 {
			l.t = between(rng, 0, (rows*r.P+r.N-1)/r.N)
		}
		if rng.IntN(5) == 0 {
			l.inUse = between(rng, 0, r.Capacity)
		}
		if rng.IntN(2) == 0 {
			l.count = between(rng, 1, 1000)
		}
		if invalid && rng.IntN(40) == 0 {
			switch rng.IntN(2) {
			case 0:
				l.p = rows + 1
			default:
				l.inUse = r.Capacity + 1
			}
		}
		if rng.IntN(3) == 0 {
			l.id = fmt.Sprintf("req-%d, \"q\"", len(lines))
		}
		l.extra = strconv.Itoa(rng.IntN(100))
		pool = append(pool, l)
		lines = append(lines, l)
	}
	return lines
}

// renderWorkload writes lines as CSV or JSON Lines with the variations the
// format allows (a BOM, CR LF, blank lines, header case and order, an
// ignored column, empty cells, null), and returns the physical line of
// each and the ignored columns.
func renderWorkload(rng *rand.Rand, lines []refLine, jsonl bool) (string, []int64, []string) {
	var b strings.Builder
	if rng.IntN(3) == 0 {
		b.WriteString("\uFEFF")
	}
	eol := "\n"
	if rng.IntN(3) == 0 {
		eol = "\r\n"
	}
	phys := int64(0)
	newline := func() { b.WriteString(eol); phys++ }
	cols := []string{"rows", "sequence_rows", "projected_rows", "target_rows", "in_use_bytes", "count", "id", "note"}
	rng.Shuffle(len(cols), func(i, j int) { cols[i], cols[j] = cols[j], cols[i] })
	value := func(l refLine, col string) (string, bool) {
		var v int64
		switch col {
		case "rows":
			v = l.rows
		case "sequence_rows":
			v = l.seq
		case "projected_rows":
			v = l.p
		case "target_rows":
			v = l.t
		case "in_use_bytes":
			v = l.inUse
		case "count":
			v = l.count
		case "id":
			return l.id, l.id != ""
		case "note":
			return l.extra, true
		}
		return strconv.FormatInt(v, 10), v >= 0
	}
	nos := make([]int64, len(lines))
	if !jsonl {
		names := make([]string, len(cols))
		for i, c := range cols {
			names[i] = c
			if rng.IntN(3) == 0 {
				names[i] = strings.ToUpper(c)
			}
		}
		if rng.IntN(3) == 0 {
			newline() // a blank line before the header
		}
		b.WriteString(strings.Join(names, ","))
		newline()
		ignored := []string{}
		for i, c := range cols {
			if c == "note" {
				ignored = append(ignored, names[i])
			}
		}
		for i, l := range lines {
			if rng.IntN(10) == 0 {
				newline()
			}
			nos[i] = phys + 1
			cells := make([]string, len(cols))
			for j, c := range cols {
				v, ok := value(l, c)
				if ok {
					cells[j] = csvCell(v)
				}
			}
			b.WriteString(strings.Join(cells, ","))
			newline()
		}
		return b.String(), nos, ignored
	}
	for i, l := range lines {
		if rng.IntN(10) == 0 {
			newline()
		}
		nos[i] = phys + 1
		var parts []string
		for _, c := range cols {
			v, ok := value(l, c)
			switch {
			case c == "id" && ok:
				parts = append(parts, fmt.Sprintf("%q: %s", c, strconv.Quote(v)))
			case ok:
				parts = append(parts, fmt.Sprintf("%q: %s", c, v))
			case rng.IntN(3) == 0:
				parts = append(parts, fmt.Sprintf("%q: null", c))
			}
		}
		b.WriteString("{" + strings.Join(parts, ", ") + "}")
		newline()
	}
	return b.String(), nos, []string{"note"}
}

func csvCell(v string) string {
	if strings.ContainsAny(v, ",\"\r\n") {
		return `"` + strings.ReplaceAll(v, `"`, `""`) + `"`
	}
	return v
}

// TestReplayMatchesReference replays random workloads in both formats
// against random configs and compares every field of the result.
func TestReplayMatchesReference(t *testing.T) {
	t.Parallel()
	rng := newRand()
	runs := 300
	if testing.Short() {
		runs = 60
	}
	changed, refused := 0, 0
	for run := 0; run < runs; run++ {
		c := randomConfig(rng)
		invalid := run%4 == 3
		lines := randomLines(rng, c, 1+rng.IntN(80), invalid)
		jsonl := run%2 == 1
		text, nos, ignored := renderWorkload(rng, lines, jsonl)
		t.Run(fmt.Sprintf("run%d", run), func(t *testing.T) {
			if run%3 == 0 { // the memo starting afresh every few shapes
				defer func(n int) { maxShapeMemo = n }(maxShapeMemo)
				maxShapeMemo = 1 + run%5
			}
			want, badLine := refReplay(c, lines, nos, ignored)
			got, err := Replay(c, strings.NewReader(text), nil)
			if badLine != 0 {
				var le *LineError
				if !errors.As(err, &le) || le.Line != badLine {
					t.Fatalf("want an error on line %d, got %v\n%s", badLine, err, text)
				}
				refused++
				return
			}
			if err != nil {
				t.Fatalf("%v\n%s", err, text)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("config %s\nworkload:\n%s\ngot  %+v\nwant %+v", marshalConfigString(c), text, got, want)
			}
			if got.ChangedLines > 0 {
				changed++
			}
		})
	}
	if refused == 0 || refused > runs/4 {
		t.Errorf("%d of %d runs had an invalid line: the error path is not compared as intended", refused, runs)
	}
	if changed < runs/20 {
		t.Errorf("only %d of %d runs had a changed line: the comparison saw too few changes", changed, runs)
	}
}

// TestReplayChangedCap: at most 1,000 changed lines are listed, the first
// ones in file order, and the counts still cover every line.
func TestReplayChangedCap(t *testing.T) {
	t.Parallel()
	c := mustDecode(t, []byte(`{"budget": {"in_use_bytes": 68451041280}}`))
	var b strings.Builder
	b.WriteString("rows,id\n")
	for i := 0; i < 1500; i++ {
		fmt.Fprintf(&b, "230000,%d\n", i) // admitted by the baseline, split by the candidate
	}
	got, err := Replay(c, strings.NewReader(b.String()), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Changed) != MaxChangedLines || got.ChangedLines != 1500 || got.ChangedRequests != 1500 {
		t.Fatalf("changed: %d listed, %d lines, %d requests", len(got.Changed), got.ChangedLines, got.ChangedRequests)
	}
	for i, l := range got.Changed {
		if l.Line != int64(i+2) || l.ID != strconv.Itoa(i) {
			t.Fatalf("changed[%d] = line %d id %q", i, l.Line, l.ID)
		}
	}
}

// TestReplayerChecksItsLines: lines built by a caller, not read, are
// checked as read ones are.
func TestReplayerChecksItsLines(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		shape Shape
		field string
	}{
		{"negative rows", Shape{-5, -1, -1, -1, -1}, "request.rows"},
		{"rows past 2^31-1", Shape{1 << 40, -1, -1, -1, -1}, "request.rows"},
		{"sequence_rows zero", Shape{100, 0, -1, -1, -1}, "request.sequence_rows"},
		{"in_use past 2^50", Shape{100, -1, -1, -1, 1<<50 + 1}, "budget.in_use_bytes"},
		{"count past 2^31-1", Shape{100, -1, -1, -1, -1}, "count"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := NewReplayer(Default())
			if err != nil {
				t.Fatal(err)
			}
			count := int64(1)
			if tc.field == "count" {
				count = 1 << 31
			}
			_, err = p.Add(&WorkloadLine{Line: 9, Count: count, Shape: tc.shape})
			var le *LineError
			if !errors.As(err, &le) || le.Line != 9 || le.Field != tc.field {
				t.Fatalf("got %v, want line 9: %s", err, tc.field)
			}
			if _, again := p.Add(&WorkloadLine{Line: 10, Count: 1, Shape: Shape{100, -1, -1, -1, -1}}); again != err {
				t.Fatalf("after an error, Add returned %v", again)
			}
		})
	}
}
