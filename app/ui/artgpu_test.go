package ui

import (
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/estimator"
)

// TestDecisionPanelPlacement: on ART's GPU placement path the decision
// panel says where the backward state and the outputs live and why (id
// placement-<Rev>); on the estimator path it has no such line.
func TestDecisionPanelPlacement(t *testing.T) {
	c := estimator.Default()
	c.Profile = estimator.ProfileArt
	on := true
	c.Art.GPUPlacement = &on
	c.Request.Rows = 300_000
	res, err := estimator.Estimate(c)
	if err != nil {
		t.Fatal(err)
	}
	p := &decisionPanel{Rev: estimator.CandidateRev, Title: "Candidate", Ready: true, Axis: "rows", Outcome: res.Candidate, Art: true}
	d := app.NewClientTester(p)
	defer d.Close()
	want := placementLine(res.Candidate.Placement)
	if err := app.TestMatch(p, app.TestUIDescriptor{Path: app.TestPath(0, 7), Expected: app.P().ID("placement-candidate").Class("placement")}); err != nil {
		t.Error(err)
	}
	if err := app.TestMatch(p, app.TestUIDescriptor{Path: app.TestPath(0, 7, 0), Expected: app.Text(want)}); err != nil {
		t.Error(err)
	}
	if len(want) < 40 || want[:len("the backward state is offloaded")] != "the backward state is offloaded" {
		t.Errorf("the line: %q", want)
	}
}
