package report

import (
	"strconv"

	"headroom/estimator"
)

// The sweep CSV's terms: a term in a stage is in that stage's column
// already, a retained term in the retained column; each term of place
// stage adds a column per revision after the others,
// baseline_<name>_bytes and candidate_<name>_bytes (0 where the revision
// does not hold it, empty at an invalid point). Without stage terms the
// CSV is as it was.

// stageTermIndexes are the indexes of the terms of place stage.
func stageTermIndexes(terms []estimator.Term) []int {
	var idx []int
	for i, t := range terms {
		if t.Place == "stage" && i < estimator.MaxTerms {
			idx = append(idx, i)
		}
	}
	return idx
}

func csvTermHeader(terms []estimator.Term) []string {
	var h []string
	for _, rev := range []string{"baseline", "candidate"} {
		for _, i := range stageTermIndexes(terms) {
			h = append(h, rev+"_"+terms[i].Name+"_bytes")
		}
	}
	return h
}

func csvTermCells(terms []estimator.Term, p *estimator.Point) []string {
	var row []string
	for r := range p.Rev {
		for _, i := range stageTermIndexes(terms) {
			if p.Error != "" || p.Rev[r].Error != "" {
				row = append(row, "")
				continue
			}
			row = append(row, strconv.FormatInt(p.Rev[r].WholeTermStages[i], 10))
		}
	}
	return row
}
