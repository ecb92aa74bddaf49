package ui

import (
	"strconv"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/app/ui/widget"
	"headroom/estimator"
)

// breakdown is the table (id breakdown) of every stage and tensor of the
// largest child, baseline beside candidate and their difference.
type breakdown struct {
	app.Compo

	Ready     bool
	Baseline  estimator.Outcome
	Candidate estimator.Outcome
	Terms     []estimator.Term // the shown config's terms
	Names     [2]string        // the columns' names, baseline first; empty: "baseline" and "candidate"
	// Art says which revisions ART's code prices, baseline first: their
	// stages are its alternatives (docs/model.md §13.5), and the one
	// that sets the price is marked.
	Art  [2]bool
	Sink *widget.Sink

	// opened holds the stages whose built-in tensors the person opened
	// (foldTensors); kept while the table is mounted.
	opened map[string]bool
}

// breakdownRow is one line of the table; a side that lacks the stage or
// tensor shows a dash and counts as 0 bytes in the difference.
type breakdownRow struct {
	Label          string
	Class          string // "stage", "tensor" or "total"
	Base, Cand     estimator.Bytes
	HasBase, HasCd bool
}

// breakdownRows lists the stages in order (each followed by its tensors),
// the retained tensors, then the totals of the plan; the config's terms
// are rows of their own (breakdown_terms.go).
func breakdownRows(b, c estimator.Outcome, terms ...estimator.Term) []breakdownRow {
	var rows []breakdownRow
	// The stages of both revisions first, then the retained parts: with
	// the two trainers side by side ART's alternatives then sit beside the
	// seeds' stages, not below the retained rows.
	stages := append([]estimator.StageBytes(nil), b.Stages...)
	seen := map[string]bool{}
	for _, s := range append(append(append([]estimator.StageBytes(nil), c.Stages...), b.Retained), c.Retained) {
		if !hasStage(stages, s.Name) {
			stages = append(stages, s)
		}
	}
	for _, s := range stages {
		if seen[s.Name] {
			continue
		}
		seen[s.Name] = true
		bs, bok := findStage(b, s.Name)
		cs, cok := findStage(c, s.Name)
		rows = append(rows, breakdownRow{Label: s.Name, Class: "stage", Base: bs.Bytes, Cand: cs.Bytes, HasBase: bok, HasCd: cok})
		rows = append(rows, tensorRows(s.Name, bs, cs, terms)...)
	}
	total := func(label string, bv, cv estimator.Bytes) {
		rows = append(rows, breakdownRow{Label: label, Class: "total", Base: bv, Cand: cv, HasBase: true, HasCd: true})
	}
	total("ephemeral peak (largest child)", b.EphemeralBytes, c.EphemeralBytes)
	total("retained (all children)", b.RetainedBytes, c.RetainedBytes)
	total("required (x safety)", b.RequiredBytes, c.RequiredBytes)
	total("lower bound", b.LowerBoundBytes, c.LowerBoundBytes)
	return rows
}

func hasStage(list []estimator.StageBytes, name string) bool {
	for _, s := range list {
		if s.Name == name {
			return true
		}
	}
	return false
}

// findStage finds a stage, or the retained part, of an outcome.
func findStage(o estimator.Outcome, name string) (estimator.StageBytes, bool) {
	if name == o.Retained.Name {
		return o.Retained, true
	}
	for _, s := range o.Stages {
		if s.Name == name {
			return s, true
		}
	}
	return estimator.StageBytes{}, false
}

func findTensor(s estimator.StageBytes, name string) (estimator.Bytes, bool) {
	for _, t := range s.Tensors {
		if t.Name == name {
			return t.Bytes, true
		}
	}
	return 0, false
}

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// Render draws the table.
func (t *breakdown) Render() (ui app.UI) {
	defer t.Sink.CatchRender("drawing the breakdown", &ui)
	if !t.Ready {
		return app.Table().ID("breakdown").Class("breakdown").Body(
			app.Caption().Text("Stages and tensors of the largest child: estimating…"),
		)
	}
	rows := breakdownRows(t.Baseline, t.Candidate, t.Terms...)
	base, cand := t.Names[0], t.Names[1]
	if base == "" || cand == "" {
		base, cand = "baseline", "candidate"
	}
	// When the two revisions chose different plans, a child of one is not
	// a child of the other: the difference column compares only each
	// plan's whole (retained over all children, required, lower bound),
	// uncoloured, and says so; a child's rows show no difference (a
	// child of one plan has no counterpart in the other).
	differ := plansDiffer(t.Baseline, t.Candidate)
	folded := foldTensors(rows)
	trs := make([]app.UI, 0, len(rows))
	stage := ""
	for i, r := range rows {
		if r.Class == "stage" {
			stage = r.Label
		}
		if r.Class == "tensor" && !t.opened[stage] {
			continue
		}
		d := estimator.Diff(r.Base, r.Cand)
		sets := ""
		if r.Class == "stage" {
			sets = t.setsPrice(r.Label)
		}
		cell := diffCell(d)
		if differ {
			cell = app.Td().Class("diff", "absent").Title("the plans differ: a child of one is not a child of the other").Text("—")
			if wholePlanRow(r.Label) {
				cell = plainDiffCell(d)
			}
		}
		label := app.Th().Scope("row").Text(r.Label + sets)
		if n := folded[i]; n > 0 {
			label = app.Th().Scope("row").Body(t.foldButton(r.Label, sets, n))
		}
		trs = append(trs, app.Tr().Class(r.Class, widget.ClassIf(d != 0 && !differ, "changed"), widget.ClassIf(sets != "", "sets-price")).Body(
			label,
			bytesCell(r.Base, r.HasBase),
			bytesCell(r.Cand, r.HasCd),
			cell,
		))
	}
	caption := "Stages and tensors of the largest child: " + base + " " + childText(t.Baseline) +
		"; " + cand + " " + childText(t.Candidate) + ". " + t.how()
	diffHead := cand + " - " + base
	if differ {
		caption += " The plans differ (" + base + " " + planText(t.Baseline, 0) + ", " + cand + " " + planText(t.Candidate, 0) +
			"): the difference compares each plan's whole only, not a child of one with a child of the other."
		diffHead += " (whole plans; the plans differ)"
	}
	return app.Table().ID("breakdown").Class("breakdown", widget.ClassIf(differ, "plans-differ")).Body(
		app.Caption().Text(caption),
		app.THead().Body(app.Tr().Body(
			app.Th().Scope("col").Text("stage / tensor"),
			app.Th().Scope("col").Text(base),
			app.Th().Scope("col").Text(cand),
			app.Th().Scope("col").ID("breakdown-diff-head").Text(diffHead),
		)),
		app.TBody().Body(trs...),
	)
}

// foldTensors says, for each stage row of rows (by index), how many
// built-in tensor rows follow it: the table draws them only when the
// person opens the stage (its button), so a closed stage costs one row.
// A term's row (class "tensor term": the person's own) is always drawn.
func foldTensors(rows []breakdownRow) map[int]int {
	out := map[int]int{}
	at := -1
	for i, r := range rows {
		switch r.Class {
		case "stage":
			at = i
		case "tensor":
			if at >= 0 {
				out[at]++
			}
		default:
			at = -1
		}
	}
	return out
}

// foldButton is a stage's label as the button that shows or hides its n
// built-in tensors (aria-expanded says which; data-stage names the stage
// for the tests, openStages in app/e2e).
func (t *breakdown) foldButton(stage, sets string, n int) app.UI {
	open := t.opened[stage]
	what := "show"
	if open {
		what = "hide"
	}
	noun := " tensors"
	if n == 1 {
		noun = " tensor"
	}
	return app.Button().Type("button").Class("stage-fold").DataSet("stage", stage).
		Aria("expanded", open).Title(what + " its " + strconv.Itoa(n) + noun).
		OnClick(t.onFold).Text(stage + sets)
}

// onFold opens or closes the stage whose button was clicked. It reads the
// stage from the button, not from a closure: go-app keeps a button's first
// handler when it redraws the button in place for another stage (opening
// a stage moves the rows below it).
func (t *breakdown) onFold(ctx app.Context, _ app.Event) {
	stage := ctx.JSSrc().Get("dataset").Get("stage").String()
	if t.opened == nil {
		t.opened = map[string]bool{}
	}
	t.opened[stage] = !t.opened[stage]
}

// setsPrice is what a stage row's label adds under ART's code when the
// stage is the alternative that sets a revision's price: " (sets the
// price)", naming the revision when only one of the two is ART's.
func (t *breakdown) setsPrice(stage string) string {
	base := t.Art[0] && t.Baseline.DominantStage == stage
	cand := t.Art[1] && t.Candidate.DominantStage == stage
	switch {
	case base && cand:
		return " (sets the price)"
	case cand:
		return " (sets the candidate's price)"
	case base:
		return " (sets the baseline's price)"
	}
	return ""
}

// how says how the stages make the price: the seeds' stages run one
// after another; ART's are alternatives, of which the largest counts.
func (t *breakdown) how() string {
	const seeds = "Stages run one after another: the peak is the largest, not the sum."
	const art = "Under ART's code the stages are alternatives (activations, moe, dense_no_grad, checkpoint, profile): " +
		"the price is the largest of them plus the outputs, times the safety factor; checkpoint adds the largest " +
		"of its workspace, head and gdn_floor, not all three."
	switch {
	case t.Art[0] && t.Art[1]:
		return art
	case t.Art[0] || t.Art[1]:
		return seeds + " " + art
	}
	return seeds
}

// bytesCell shows exact bytes over their GiB, so the wide figure and the
// readable one share a narrow column. It is one text node (the style
// sheet breaks the line and styles the first): a drag rewrites every cell
// once per frame, so the table's DOM is kept to one node per cell.
func bytesCell(b estimator.Bytes, ok bool) app.UI {
	if !ok {
		return app.Td().Class("absent").Text("—")
	}
	return app.Td().Text(estimator.Group(int64(b)) + "\n" + b.GiBString() + " GiB")
}

// diffCell shows a difference, signed, as bytesCell shows a count.
func diffCell(d estimator.Bytes) app.UI {
	sign := ""
	if d > 0 {
		sign = "+"
	}
	return app.Td().Class("diff", widget.ClassIf(d > 0, "more"), widget.ClassIf(d < 0, "less")).
		Text(sign + estimator.Group(int64(d)) + "\n" + sign + d.GiBString() + " GiB")
}

// plansDiffer reports whether the revisions run the request as different
// plans (another number of children, or children of other sizes).
func plansDiffer(b, c estimator.Outcome) bool {
	return b.Children != c.Children || b.ChildRows != c.ChildRows
}

// wholePlanRow reports whether a total row is the whole plan's, not the
// largest child's.
func wholePlanRow(label string) bool {
	switch label {
	case "retained (all children)", "required (x safety)", "lower bound":
		return true
	}
	return false
}

// plainDiffCell is a difference without the colour of better or worse:
// two different plans' wholes, where less is not cheaper (the plan that
// splits costs extra forwards).
func plainDiffCell(d estimator.Bytes) app.UI {
	sign := ""
	if d > 0 {
		sign = "+"
	}
	return app.Td().Class("diff").Text(sign + estimator.Group(int64(d)) + "\n" + sign + d.GiBString() + " GiB")
}

func childText(o estimator.Outcome) string {
	return estimator.Group(o.ChildRows) + " rows (" + o.Decision.String() + ")"
}
