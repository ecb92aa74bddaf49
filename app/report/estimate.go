package report

import (
	"strings"

	"headroom/estimator"
)

// EstimateRow is one line of the estimate's comparison: a quantity, each
// revision's value, and the candidate's difference ("" when the two are
// the same or a difference means nothing, as for a decision).
type EstimateRow struct {
	Name, Baseline, Candidate, Difference string
}

// EstimateRows compares the two revisions of an estimate: the decision,
// the plan (children and rows each), required bytes and margin (exact
// bytes, with GiB), the available bytes when each revision has its own,
// the dominant stage, then each stage's bytes and the retained bytes of
// the largest child. Only the rows whose values differ carry a
// Difference. SamePlan is false when the revisions chose different plans
// (children, or rows a child): then the stage rows compare each plan's
// largest child, not like with like, and the reports say so.
func EstimateRows(res estimator.Result) (rows []EstimateRow, samePlan bool) {
	b, c := res.Baseline, res.Candidate
	samePlan = b.Children == c.Children && b.ChildRows == c.ChildRows
	text := func(name, bv, cv string) {
		rows = append(rows, EstimateRow{Name: name, Baseline: bv, Candidate: cv})
	}
	bytesRow := func(name string, bv, cv estimator.Bytes) {
		r := EstimateRow{Name: name, Baseline: bv.String(), Candidate: cv.String()}
		if bv != cv {
			r.Difference = estimator.Diff(bv, cv).DeltaString()
		}
		rows = append(rows, r)
	}
	text("decision", DecisionText(b.Decision, b.Children), DecisionText(c.Decision, c.Children))
	text("plan", planText(b), planText(c))
	bytesRow("required", b.RequiredBytes, c.RequiredBytes)
	bytesRow("margin", b.MarginBytes, c.MarginBytes)
	if b.AvailableBytes != nil && c.AvailableBytes != nil {
		bytesRow("available", *b.AvailableBytes, *c.AvailableBytes)
	}
	bytesRow("retained, all children", b.RetainedBytes, c.RetainedBytes)
	bytesRow("peak of a child (ephemeral)", b.EphemeralBytes, c.EphemeralBytes)
	text("dominant stage", b.DominantStage, c.DominantStage)
	seen := map[string]bool{}
	for _, o := range []estimator.Outcome{b, c} {
		for _, s := range o.Stages {
			if seen[s.Name] {
				continue
			}
			seen[s.Name] = true
			bytesRow("stage "+s.Name+" (largest child)", b.Stage(s.Name).Bytes, c.Stage(s.Name).Bytes)
		}
	}
	bytesRow("retained (largest child)", b.ChildRetainedBytes, c.ChildRetainedBytes)
	return rows, samePlan
}

// planText is a revision's plan: "1 child of 64,902 rows", "2 children of
// 32,451 rows", or for a refusal the last plan tried.
func planText(o estimator.Outcome) string {
	if o.Decision == estimator.Refuse {
		return "none fits (last tried: children of " + estimator.Group(o.ChildRows) + " rows)"
	}
	if o.Children == 1 {
		return "1 child of " + estimator.Group(o.ChildRows) + " rows"
	}
	return estimator.Group(o.Children) + " children of " + estimator.Group(o.ChildRows) + " rows"
}

// revisionNames name the two revisions for the text: the baseline (all
// changes off, or a config of its own) and the candidate's changes.
func revisionNames(cfg estimator.Config) [2]string {
	base := "Baseline (all changes off)"
	if cfg.Baseline != nil {
		base = "Baseline (a config of its own)"
	}
	return [2]string{base, "Candidate (" + strings.ReplaceAll(CandidateChanges(cfg), "`", "") + ")"}
}

// differs is the rows whose values differ, but the decision and plan
// rows, which planSentence says.
func differs(rows []EstimateRow) []EstimateRow {
	var out []EstimateRow
	for _, r := range rows {
		if r.Baseline != r.Candidate && r.Name != "decision" && r.Name != "plan" {
			out = append(out, r)
		}
	}
	return out
}

// planSentence says whether the decisions and plans differ.
func planSentence(res estimator.Result, samePlan bool) string {
	b, c := res.Baseline, res.Candidate
	switch {
	case b.Decision != c.Decision:
		return "The candidate decides " + DecisionText(c.Decision, c.Children) + " where the baseline decides " + DecisionText(b.Decision, b.Children) + "."
	case !samePlan:
		return "Both decide " + b.Decision.String() + ", on different plans (" + planText(b) + " against " + planText(c) + ")."
	default:
		return "Both decide " + DecisionText(b.Decision, b.Children) + ", on the same plan."
	}
}

// plansDiffer warns that the rows of the largest child compare two
// different plans.
const plansDiffer = "The plans differ: the rows marked (largest child) compare one child of each plan, not like with like; required, margin and \"retained, all children\" are the whole request's."

// splitNote says what a split means for the bytes.
const splitNote = "Children run one after another; each child's retained bytes (checkpoints, outputs) stay until backward, so they add up."

// EstimateText is the estimate for a terminal: the available bytes, each
// revision's decision, plan, required and margin (exact bytes with GiB),
// dominant stage and reason, then where the candidate differs.
func EstimateText(cfg estimator.Config, res estimator.Result) string {
	var b strings.Builder
	names := revisionNames(cfg)
	b.WriteString("Estimate of " + estimator.Group(cfg.Request.Rows) + " rows; available " + res.AvailableBytes.String() + "\n")
	rows, samePlan := EstimateRows(res)
	for i, o := range []estimator.Outcome{res.Baseline, res.Candidate} {
		b.WriteString("\n" + names[i] + ": " + DecisionText(o.Decision, o.Children) + "\n")
		b.WriteString("  plan      " + planText(o) + "\n")
		b.WriteString("  required  " + o.RequiredBytes.String() + "\n")
		b.WriteString("  margin    " + o.MarginBytes.String() + "\n")
		if o.AvailableBytes != nil {
			b.WriteString("  available " + o.AvailableBytes.String() + "\n")
		}
		b.WriteString("  dominant  " + o.DominantStage + "\n")
		b.WriteString("  " + o.Reason + "\n")
		if t := PlacementSentence(o); t != "" {
			b.WriteString("  " + t + "\n")
		}
	}
	b.WriteString("\nWhere the candidate differs: " + planSentence(res, samePlan) + "\n")
	d := differs(rows)
	if len(d) == 0 {
		b.WriteString("  It needs the same bytes as the baseline.\n")
	}
	width := 0
	for _, r := range d {
		width = max(width, len(r.Name))
	}
	for _, r := range d {
		pad := strings.Repeat(" ", width-len(r.Name))
		if r.Difference != "" {
			b.WriteString("  " + r.Name + pad + "  " + r.Difference + "\n")
		} else {
			b.WriteString("  " + r.Name + pad + "  " + r.Baseline + " -> " + r.Candidate + "\n")
		}
	}
	if !samePlan && len(d) > 0 {
		b.WriteString("  " + plansDiffer + "\n")
	}
	if res.Baseline.Children > 1 || res.Candidate.Children > 1 {
		b.WriteString("\n" + splitNote + "\n")
	}
	if t := SourceSentence(res); t != "" {
		b.WriteString("\n" + t + "\n")
	}
	return b.String()
}

// EstimateMarkdown is the estimate for a pull request: a title, one
// sentence on the decisions, the comparison table (baseline, candidate,
// difference), and each revision's reason.
func EstimateMarkdown(cfg estimator.Config, res estimator.Result) string {
	var b strings.Builder
	rows, samePlan := EstimateRows(res)
	b.WriteString("### Estimate of the candidate (" + CandidateChanges(cfg) + "): " +
		estimator.Group(cfg.Request.Rows) + " rows\n\n")
	b.WriteString("Available: " + res.AvailableBytes.String() + ". " + planSentence(res, samePlan) + "\n\n")
	b.WriteString("| | baseline | candidate | candidate - baseline |\n| --- | ---: | ---: | ---: |\n")
	for _, r := range rows {
		b.WriteString("| " + MarkdownCell(r.Name) + " | " + MarkdownCell(r.Baseline) + " | " +
			MarkdownCell(r.Candidate) + " | " + MarkdownCell(r.Difference) + " |\n")
	}
	if !samePlan {
		b.WriteString("\n" + plansDiffer + "\n")
	}
	if res.Baseline.Children > 1 || res.Candidate.Children > 1 {
		b.WriteString("\n" + splitNote + "\n")
	}
	b.WriteString("\n- **Baseline**: " + MarkdownCell(res.Baseline.Reason) + "\n")
	b.WriteString("- **Candidate**: " + MarkdownCell(res.Candidate.Reason) + "\n")
	for i, o := range []estimator.Outcome{res.Baseline, res.Candidate} {
		if t := PlacementSentence(o); t != "" {
			b.WriteString("- **" + [2]string{"Baseline", "Candidate"}[i] + " placement**: " + MarkdownCell(t) + "\n")
		}
	}
	if t := SourceSentence(res); t != "" {
		b.WriteString("\n" + MarkdownCell(t) + "\n")
	}
	return b.String()
}
