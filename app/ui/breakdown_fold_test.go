package ui

import (
	"html"
	"strings"
	"testing"

	"github.com/maxence-charriere/go-app/v9/pkg/app"

	"headroom/estimator"
)

// A stage of the breakdown draws its built-in tensors only once opened
// (the tensor rows were most of the table's nodes); closed, its
// row is a button saying how many it holds.
func TestBreakdownFoldsTensors(t *testing.T) {
	res, err := estimator.Estimate(estimator.Default())
	if err != nil {
		t.Fatal(err)
	}
	b := &breakdown{Ready: true, Baseline: res.Baseline, Candidate: res.Candidate}
	closed := html.UnescapeString(app.HTMLString(b))
	var open estimator.StageBytes
	for _, st := range res.Candidate.Stages {
		if len(st.Tensors) == 0 {
			continue
		}
		if open.Name == "" {
			open = st
		}
		if !strings.Contains(closed, `data-stage="`+st.Name+`"`) {
			t.Errorf("no button opening %s's tensors", st.Name)
		}
	}
	if open.Name == "" {
		t.Fatal("the default config's candidate has no stage with tensors")
	}
	if n := strings.Count(closed, `class="tensor`); n != 0 {
		t.Errorf("%d tensor rows drawn with every stage closed", n)
	}
	if strings.Count(closed, `aria-expanded="false"`) != strings.Count(closed, `data-stage=`) {
		t.Errorf("closed stages' buttons do not all say aria-expanded false")
	}
	b = &breakdown{Ready: true, Baseline: res.Baseline, Candidate: res.Candidate, opened: map[string]bool{open.Name: true}}
	opened := html.UnescapeString(app.HTMLString(b))
	for _, tn := range open.Tensors {
		if !strings.Contains(opened, `<th scope="row">`+tn.Name+"<") {
			t.Errorf("%s opened: its tensor %q is not drawn", open.Name, tn.Name)
		}
	}
	if n := strings.Count(opened, `class="tensor`); n != len(open.Tensors) {
		t.Errorf("%s opened: %d tensor rows, want its %d", open.Name, n, len(open.Tensors))
	}
	// go-app's HTML writer writes aria-expanded="true" as a bare
	// attribute (the browser's is "true"): the opened stage is the one
	// button not saying false.
	if a, b := strings.Count(closed, `aria-expanded="false"`), strings.Count(opened, `aria-expanded="false"`); b != a-1 {
		t.Errorf("%s opened: %d buttons say aria-expanded false, %d with all closed", open.Name, b, a)
	}
}
