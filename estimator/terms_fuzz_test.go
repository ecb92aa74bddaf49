package estimator

import (
	"go/parser"
	"strings"
	"testing"
)

// FuzzTermExpr: any text as a term's bytes, at any piece, never panics;
// an error is never empty; and the compiled program agrees with the
// reference's exact tree walk (ref_terms_test.go): it fails exactly when
// the reference does, else gives the same value. The text is also priced
// as a term of every place through Estimate.
func FuzzTermExpr(f *testing.F) {
	for _, tc := range termErrors {
		f.Add(tc.expr, uint64(64902), uint8(0))
	}
	for _, s := range []string{"2 * D", "r * I * b", "max(0, 10_000_000 - n * 100)", "ceil(n * H, 7) + min(p, C, t)",
		"-(-n)", "+n", "1_2_3", "0", "n / s * s", "Dt / (t + 1)", "((n))", "min(n, 1, 2, 3, 4)", "k * g * E"} {
		f.Add(s, uint64(4096), uint8(3))
		f.Add(s, uint64(1), uint8(5))
	}
	// Every variable of the language in every place and revision (place
	// byte p + 8 x revision): a plain go test runs these seeds, so a
	// variable the reference lags behind fails there, not only under -fuzz.
	for _, v := range TermVariables() {
		for p := range TermPlaces {
			for r := range TermRevisions {
				f.Add(v+" * 3 + 1", uint64(4096), uint8(p+8*r))
			}
		}
		f.Add(v, uint64(1), uint8(0))
	}
	base := Default()
	base.Request.ProjectedRows, base.Request.TargetRows = Int64(50_000), Int64(7)
	m := refFrom(base)
	f.Fuzz(func(t *testing.T, expr string, rows uint64, place uint8) {
		n := inRange(rows, 1, base.Request.Rows)
		got, err := EvalTermBytes(base, expr, n)
		if err != nil && err.Error() == "" {
			t.Fatalf("%q: an empty error", expr)
		}
		// The reference.
		refOK := false
		var refVal int64
		if e, perr := parser.ParseExpr(expr); perr == nil && len(expr) <= MaxTermBytesText && refWellFormed(e) {
			p, tt := ceilRef(n*m.P, m.N), ceilRef(n*m.T, m.N)
			if v, ok := refEval(e, m.refVars(n, p, tt)); ok && v.Sign() >= 0 {
				refOK, refVal = true, v.Int64()
			}
		}
		if (err == nil) != refOK || err == nil && got != refVal {
			t.Fatalf("%q at %d rows: %d, %v; the reference says %d (ok %v)", expr, n, got, err, refVal, refOK)
		}
		// Through a config, in one of the places.
		c := base
		c.Terms = []Term{{Name: "fuzz", Place: TermPlaces[int(place)%len(TermPlaces)], Revision: TermRevisions[int(place/8)%3], Bytes: expr}}
		if _, err := Estimate(c); err != nil && (err.Error() == "" || !strings.HasPrefix(err.Error(), "terms[0] (fuzz): ") && !strings.Contains(err.Error(), "overflows")) {
			t.Fatalf("%q: Estimate error %q does not name the term", expr, err)
		}
	})
}
