package estimator

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// Random terms for the property tests (docs/model.md §8): expressions over every
// variable and operator, mostly valid and of moderate size, sometimes
// failing (a negative value, a division by a variable that is 0), placed
// and held at random.

var (
	genPieceVars  = []string{"n", "p", "t", "r", "D", "Dt"}
	genConfigVars = []string{"N", "P", "T", "s", "V", "H", "L", "K", "M", "I", "O", "b", "E", "C", "k", "g", "Hk", "Dk", "Hv", "Dv"}
	genDivisors   = []string{"C", "s", "V", "H", "L", "b", "E", "I", "O", "M", "Dk", "Dv", "Hv", "n", "p"}
)

func genLiteral(rng *rand.Rand) string {
	switch rng.IntN(6) {
	case 0:
		return "0"
	case 1:
		return strconv.Itoa(rng.IntN(10))
	case 2:
		return "1_000_000"
	case 3:
		return strconv.Itoa(1 + rng.IntN(100_000))
	case 4:
		return "10_000_000"
	}
	return strconv.Itoa(1 << rng.IntN(12))
}

func genVar(rng *rand.Rand) string {
	if rng.IntN(2) == 0 {
		return genPieceVars[rng.IntN(len(genPieceVars))]
	}
	return genConfigVars[rng.IntN(len(genConfigVars))]
}

// genExpr returns a random expression of at most depth levels.
func genExpr(rng *rand.Rand, depth int) string {
	if depth == 0 || rng.IntN(4) == 0 {
		if rng.IntN(3) == 0 {
			return genLiteral(rng)
		}
		return genVar(rng)
	}
	sub := func() string { return genExpr(rng, depth-1) }
	wrap := func(s string) string {
		if rng.IntN(2) == 0 {
			return "(" + s + ")"
		}
		return s
	}
	switch rng.IntN(11) {
	case 0, 1:
		return wrap(sub() + " + " + sub())
	case 2, 3:
		return wrap(sub() + " * " + sub())
	case 4:
		return "max(0, " + sub() + " - " + sub() + ")"
	case 5:
		return wrap(sub() + " - " + sub())
	case 6:
		d := genDivisors[rng.IntN(len(genDivisors))]
		if rng.IntN(4) == 0 {
			d = genLiteral(rng)
		}
		return wrap(sub() + " / " + d)
	case 7:
		d := genDivisors[rng.IntN(len(genDivisors))]
		if rng.IntN(8) == 0 {
			d = "K" // 0 for a dense model: a division by zero
		}
		return "ceil(" + sub() + ", " + d + ")"
	case 8:
		args := []string{sub(), sub()}
		if rng.IntN(3) == 0 {
			args = append(args, sub())
		}
		return "min(" + strings.Join(args, ", ") + ")"
	case 9:
		return "max(" + sub() + ", " + sub() + ")"
	}
	return genVar(rng) + " * " + genLiteral(rng)
}

// genTerms returns up to max random terms with distinct names.
func genTerms(rng *rand.Rand, most int) []Term {
	places := []string{"retained", "activations", "head", "fc2", "gdn", "stage"}
	revisions := []string{"", "candidate", "baseline", "both"}
	terms := make([]Term, 1+rng.IntN(most))
	for i := range terms {
		expr := genExpr(rng, 1+rng.IntN(3))
		for len(expr) > MaxTermBytesText {
			expr = genExpr(rng, 2)
		}
		terms[i] = Term{
			Name:     "term_" + strconv.Itoa(i),
			Place:    places[rng.IntN(len(places))],
			Revision: revisions[rng.IntN(len(revisions))],
			Bytes:    expr,
		}
	}
	return terms
}

// randomTermsConfig is a random config with random terms, its budget
// placed near one of its plans (terms included).
func randomTermsConfig(rng *rand.Rand) Config {
	c := randomShape(rng)
	c.Terms = genTerms(rng, 5)
	placeBudget(rng, &c)
	return c
}
