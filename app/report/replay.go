package report

import (
	"encoding/csv"
	"slices"
	"strconv"
	"strings"

	"headroom/estimator"
)

// ShownLines is how many changed lines the Markdown report lists.
const ShownLines = 10

// Markdown is the replay's report of cfg's revisions for a pull-request
// comment: a title naming the candidate's changes and how many requests
// they change, what the baseline is (BaselineText), the transition table
// (baseline decisions as rows, candidate decisions as columns; each cell
// requests and rows, with their share), one sentence saying what changes,
// and the first changed lines.
func Markdown(res estimator.ReplayResult, cfg estimator.Config) string {
	var b strings.Builder
	moved := res.ChangedRequests + res.ChildrenChangedRequests
	b.WriteString("### Replay of the candidate (" + CandidateChanges(cfg) + "): ")
	if moved == 0 {
		b.WriteString("none of " + estimator.Group(res.Requests) + " requests change\n\n")
	} else {
		b.WriteString(estimator.Group(moved) + " of " + estimator.Group(res.Requests) + " requests change\n\n")
	}
	b.WriteString(estimator.Group(res.Requests) + " requests (" + estimator.Group(res.Lines) + " lines, " +
		estimator.Group(res.Rows) + " rows), decided by the baseline (" + BaselineText(cfg) + ") and the candidate:\n\n")

	b.WriteString("| baseline \\ candidate | admit | split | refuse |\n| --- | ---: | ---: | ---: |\n")
	var cells [3][3]estimator.Transition
	for _, t := range res.Transitions {
		cells[t.Baseline][t.Candidate] = t
	}
	for bd := estimator.Admit; bd <= estimator.Refuse; bd++ {
		b.WriteString("| **" + bd.String() + "** |")
		for cd := estimator.Admit; cd <= estimator.Refuse; cd++ {
			t := cells[bd][cd]
			if t.Requests == 0 {
				b.WriteString(" 0 |")
				continue
			}
			b.WriteString(" " + estimator.Group(t.Requests) + " (" + Percent(t.Requests, res.Requests) + "), " +
				estimator.Group(t.Rows) + " rows (" + Percent(t.Rows, res.Rows) + ") |")
		}
		b.WriteString("\n")
	}
	b.WriteString("\n" + Sentence(res) + " " + CostSentence(res) + "\n")
	if t := ReplayPlacementSentence(res); t != "" {
		b.WriteString("\n" + t + "\n")
	}
	if t := IgnoredText(res.Ignored); t != "" {
		b.WriteString("\n" + t + "\n")
	}

	if res.ChangedLines > 0 {
		shown := min(len(res.Changed), ShownLines)
		switch {
		case res.ChangedLines == 1:
			b.WriteString("\nThe changed line:\n\n")
		case int64(shown) == res.ChangedLines:
			b.WriteString("\nThe " + strconv.Itoa(shown) + " changed lines:\n\n")
		default:
			b.WriteString("\nThe first " + strconv.Itoa(shown) + " of " + estimator.Group(res.ChangedLines) + " changed lines:\n\n")
		}
		b.WriteString("| line | id | rows | count | baseline | candidate |\n| ---: | --- | ---: | ---: | --- | --- |\n")
		for _, l := range res.Changed[:shown] {
			b.WriteString("| " + strconv.FormatInt(l.Line, 10) + " | " + MarkdownCell(l.ID) + " | " + estimator.Group(l.Rows) +
				" | " + estimator.Group(l.Count) + " | " + DecisionText(l.Baseline, l.BaselineChildren) +
				" | " + DecisionText(l.Candidate, l.CandidateChildren) + " |\n")
		}
	}
	return b.String()
}

// Sentence says in one sentence what the candidate changes, for
// example "217 of 12,648 requests (1.7 %, 6.2 % of rows) that the
// baseline admits whole would split under the candidate; none would be
// refused."
func Sentence(res estimator.ReplayResult) string {
	if res.ChangedRequests == 0 && res.ChildrenChangedRequests == 0 {
		return "No request changes: both revisions decide all " + estimator.Group(res.Requests) +
			" requests alike, with the same number of children."
	}
	var clauses []string
	share := func(req, rows int64) string {
		s := estimator.Group(req)
		if len(clauses) == 0 {
			s += " of " + estimator.Group(res.Requests)
		}
		if req == 1 && len(clauses) > 0 {
			s += " request"
		} else {
			s += " requests"
		}
		return s + " (" + Percent(req, res.Requests) + ", " + Percent(rows, res.Rows) + " of rows)"
	}
	newRefusals := false
	for _, t := range res.Transitions {
		if t.Baseline == t.Candidate {
			continue
		}
		newRefusals = newRefusals || t.Candidate == estimator.Refuse
		clauses = append(clauses, share(t.Requests, t.Rows)+" that the baseline "+baselineVerb[t.Baseline]+
			" would "+candidateVerb[t.Candidate]+" under the candidate")
	}
	if res.ChildrenChangedRequests > 0 {
		clauses = append(clauses, share(res.ChildrenChangedRequests, res.ChildrenChangedRows)+
			" that both split would split into a different number of children")
	}
	if !newRefusals {
		clauses = append(clauses, "none would be refused")
	}
	s := strings.Join(clauses, "; ") + "."
	return strings.ToUpper(s[:1]) + s[1:]
}

// CostSentence is the cost of a hold (docs/model.md §9): the extra
// forwards the candidate's plans run and the rows each revision runs
// split: "The candidate runs 12 more forwards than the baseline (over
// the requests neither refuses); rows that run split: 1,000 (0.5 %)
// under the baseline, 5,000 (2.4 %) under the candidate."
func CostSentence(res estimator.ReplayResult) string {
	var s string
	switch f := res.ExtraForwards; {
	case f == 0:
		s = "The candidate runs as many forwards as the baseline"
	case f > 0:
		s = "The candidate runs " + estimator.Group(f) + " more " + plural(f, "forward") + " than the baseline"
	default:
		s = "The candidate runs " + estimator.Group(-f) + " fewer " + plural(-f, "forward") + " than the baseline"
	}
	return s + " (over the requests neither refuses); rows that run split: " +
		estimator.Group(res.BaselineSplitRows) + " (" + Percent(res.BaselineSplitRows, res.Rows) + ") under the baseline, " +
		estimator.Group(res.CandidateSplitRows) + " (" + Percent(res.CandidateSplitRows, res.Rows) + ") under the candidate."
}

func plural(n int64, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

// IgnoredText names the workload's ignored columns (or JSON keys):
// "Ignored columns (read as neither a field nor id): tenant, note.",
// each name escaped for Markdown; "" when there are none.
func IgnoredText(ignored []string) string {
	if len(ignored) == 0 {
		return ""
	}
	q := make([]string, len(ignored))
	for i, c := range ignored {
		q[i] = MarkdownCell(c)
	}
	word := "Ignored column"
	if len(q) > 1 {
		word += "s"
	}
	return word + " (read as neither a field nor id): " + strings.Join(q, ", ") + "."
}

var baselineVerb = map[estimator.Decision]string{
	estimator.Admit: "admits whole", estimator.Split: "splits", estimator.Refuse: "refuses",
}

var candidateVerb = map[estimator.Decision]string{
	estimator.Admit: "be admitted whole", estimator.Split: "split", estimator.Refuse: "be refused",
}

// Percent is part of whole as "1.7 %": one decimal, "<0.1 %" and ">99.9 %"
// rather than a rounding that hides a part or the rest.
func Percent(part, whole int64) string {
	if whole <= 0 {
		return "0 %"
	}
	p := float64(part) / float64(whole) * 100
	switch {
	case part == whole:
		return "100 %"
	case part == 0:
		return "0 %"
	case p < 0.05:
		return "<0.1 %"
	case p >= 99.95:
		return ">99.9 %"
	}
	return strconv.FormatFloat(p, 'f', 1, 64) + " %"
}

// DecisionText is a line's decision as the reports write it: "admit",
// "refuse" or "split into k".
func DecisionText(d estimator.Decision, children int64) string {
	if d == estimator.Split {
		return "split into " + estimator.Group(children)
	}
	return d.String()
}

// ChangeNames lists the candidate's changes that are on, in code
// formatting, or says there are none.
func ChangeNames(c estimator.Changes) string {
	var on []string
	for _, ch := range []struct {
		on   bool
		name string
	}{{c.HeadEagerWorkspace, "head_eager_workspace"}, {c.FC2KnownStorage, "fc2_known_storage"}, {c.GDNEarlyRelease, "gdn_early_release"}} {
		if ch.on {
			on = append(on, "`"+ch.name+"`")
		}
	}
	if len(on) == 0 {
		return "no changes on"
	}
	return JoinAnd(on)
}

// CandidateChanges names the candidate's switches that act on cfg, as
// ChangeNames does, and those on that change nothing for this model
// apart (estimator.ActingChanges): "`head_eager_workspace`;
// `gdn_early_release` is on but changes nothing for this model".
func CandidateChanges(cfg estimator.Config) string {
	acting, inert := estimator.ActingChanges(cfg)
	text := codeList(acting)
	if len(acting) == 0 {
		text = "no changes on"
		if len(inert) > 0 {
			text = "no change on acts on this model"
		}
	}
	switch len(inert) {
	case 0:
	case 1:
		text += "; " + codeList(inert) + " is on but changes nothing for this model"
	default:
		text += "; " + codeList(inert) + " are on but change nothing for this model"
	}
	return text
}

// codeList is names in code formatting, "a, b and c".
func codeList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	return JoinAnd(q)
}

// BaselineText says what cfg's baseline is: "all changes off" without a
// baseline of its own; else "its own: " and its switches that are on, then
// each field it overrides with the baseline's value, in path order, a
// capacity with its GPU's name: "its own: `fc2_known_storage` on;
// budget.capacity_bytes 85,899,345,920 (H100 80GB)". An override back to
// a field's default is "auto"; a boolean is "on" or "off".
func BaselineText(cfg estimator.Config) string {
	if cfg.Baseline == nil {
		return "all changes off"
	}
	parts := []string{ChangeNames(cfg.Baseline.Changes)}
	if parts[0] != "no changes on" {
		parts[0] += " on"
	}
	paths := make([]string, 0, len(cfg.Baseline.Overrides))
	for path := range cfg.Baseline.Overrides {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		set := cfg.Baseline.Overrides[path]
		var value string
		f, _ := estimator.FieldByKey(path)
		switch {
		case set.Default:
			value = "auto"
		case f != nil && f.Kind == estimator.BoolField:
			value = map[bool]string{true: "on", false: "off"}[set.Bool]
		default:
			value = estimator.Group(set.Int)
			if g := estimator.GPUForCapacity(set.Int); path == "budget.capacity_bytes" && g.ID != estimator.CustomGPU {
				value += " (" + g.Name + ")"
			}
		}
		parts = append(parts, MarkdownCell(path)+" "+value)
	}
	return "its own: " + strings.Join(parts, "; ")
}

// CSVHeader names the columns of the replay's CSV: one row per workload
// line, with both revisions' decisions and children.
var CSVHeader = []string{"line", "id", "rows", "count", "baseline", "candidate", "baseline_children", "candidate_children"}

// WriteCSVRow writes one workload line of the replay's CSV. The id, the
// workload's own text, goes through CSVCell: a spreadsheet shows it, it
// does not run it.
func WriteCSVRow(w *csv.Writer, l estimator.ReplayLine) error {
	return w.Write([]string{
		strconv.FormatInt(l.Line, 10), CSVCell(l.ID), strconv.FormatInt(l.Rows, 10), strconv.FormatInt(l.Count, 10),
		l.Baseline.String(), l.Candidate.String(),
		strconv.FormatInt(l.BaselineChildren, 10), strconv.FormatInt(l.CandidateChildren, 10),
	})
}
