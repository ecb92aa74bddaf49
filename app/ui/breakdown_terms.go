package ui

import (
	"strings"

	"headroom/estimator"
)

// The breakdown's terms: in a stage (and among the retained tensors), a
// revision's terms follow its built-in tensors in the order of the terms,
// and a term of place stage is a stage of its own holding its one tensor
// (the estimator's doc.go). So a stage's tensors are cut into the built-in
// ones, matched by name between the revisions as before, and the terms,
// matched by their unique names: a term named like a built-in tensor
// ("input" in fc2) gets its own row. Term rows have the class "term".

// termHeld reports whether revision rev (0 baseline, 1 candidate) holds t.
func termHeld(t estimator.Term, rev int) bool {
	switch t.Revision {
	case "both":
		return true
	case "baseline":
		return rev == 0
	}
	return rev == 1
}

// termStage is the name of the stage t is listed under.
func termStage(t estimator.Term) string {
	if t.Place == "stage" {
		return t.Name
	}
	return t.Place
}

// artCheckpointPlaces are the places of ART's checkpoint alternative: under
// ART's code a term there is listed in the stage "checkpoint", after ART's
// tensor of its part (docs/model.md §13.13).
var artCheckpointPlaces = map[string]bool{"retained": true, "retained_floor": true, "workspace": true, "head": true,
	"gdn_floor": true, "input_gradient": true, "adapter_gradients": true, "cold_transients": true, "backward": true}

// inStage reports whether t is listed under the stage name: its own
// stage, or ART's checkpoint for a part of it.
func inStage(t estimator.Term, name string) bool {
	return termStage(t) == name || name == "checkpoint" && artCheckpointPlaces[t.Place]
}

// splitTerms cuts a revision's tensors of stage into the built-in ones
// and its terms. ART's checkpoint lists each term after its part's
// tensor, so there they are picked by name.
func splitTerms(s estimator.StageBytes, terms []estimator.Term, rev int) (builtin, own []estimator.TensorBytes) {
	if s.Name == "checkpoint" {
		for _, tb := range s.Tensors {
			isTerm := false
			for _, t := range terms {
				isTerm = isTerm || t.Name == tb.Name && termHeld(t, rev) && inStage(t, s.Name)
			}
			if isTerm {
				own = append(own, tb)
			} else {
				builtin = append(builtin, tb)
			}
		}
		return builtin, own
	}
	m := 0
	for _, t := range terms {
		if termStage(t) == s.Name && termHeld(t, rev) {
			m++
		}
	}
	k := max(0, len(s.Tensors)-m)
	return s.Tensors[:k], s.Tensors[k:]
}

// tensorRows lists the rows of a stage's tensors, baseline's bs beside
// candidate's cs.
func tensorRows(name string, bs, cs estimator.StageBytes, terms []estimator.Term) []breakdownRow {
	bBuilt, bTerms := splitTerms(bs, terms, 0)
	cBuilt, cTerms := splitTerms(cs, terms, 1)
	var names []string
	for _, t := range bBuilt {
		names = appendNew(names, t.Name)
	}
	for _, t := range cBuilt {
		names = appendNew(names, t.Name)
	}
	var rows []breakdownRow
	for _, n := range names {
		bt, bok := findTensor(estimator.StageBytes{Tensors: bBuilt}, n)
		ct, cok := findTensor(estimator.StageBytes{Tensors: cBuilt}, n)
		rows = append(rows, breakdownRow{Label: n, Class: "tensor", Base: bt, Cand: ct, HasBase: bok, HasCd: cok})
	}
	for _, t := range terms {
		if !inStage(t, name) {
			continue
		}
		bt, bok := findTensor(estimator.StageBytes{Tensors: bTerms}, t.Name)
		ct, cok := findTensor(estimator.StageBytes{Tensors: cTerms}, t.Name)
		if bok || cok {
			rows = append(rows, breakdownRow{Label: t.Name, Class: "tensor term", Base: bt, Cand: ct, HasBase: bok, HasCd: cok})
		}
	}
	return rows
}

// termsNote names the terms revision rev holds, for its decision panel's
// subtitle: "; terms logits_fp32_copy, router_buffer", or "".
func termsNote(terms []estimator.Term, rev int) string {
	var names []string
	for _, t := range terms {
		if termHeld(t, rev) {
			names = append(names, t.Name)
		}
	}
	if len(names) == 0 {
		return ""
	}
	return "; terms " + strings.Join(names, ", ")
}
