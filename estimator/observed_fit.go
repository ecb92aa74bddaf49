package estimator

import (
	"errors"
	"math/big"
)

// fitResiduals fits residual ~ s + r x rows by ordinary least squares over
// the points (rows[i], residual[i]) and measures the largest error in
// percent of peak[i] before and after subtracting the rounded line.
//
// It is computed exactly, in math/big: the sums of rows^2 and of rows x
// residual exceed int64 (2^62 x 2^63 for one term), and floats would put
// a coefficient whose exact value is a half on the wrong side. With
// m points, Sx = sum rows, Sy = sum residual, Sxx = sum rows^2, Sxy = sum
// rows x residual and d = m Sxx - Sx^2:
//
//	r = (m Sxy - Sx Sy) / d,  s = (Sxx Sy - Sx Sxy) / d    (d > 0)
//	r = 0,                    s = Sy / m                   (d = 0: one point, or every point at the same rows)
//
// s is the intercept of the exact line (not recomputed from the rounded
// r); each is then rounded to the nearest integer, halves away from zero:
// a mean residual of -2.5 bytes gives static_bytes -3, of 0.5 gives 1.
// A coefficient beyond int64 (possible only with residuals near 2^63
// between neighbouring rows) is an error.
func fitResiduals(rows, residual, peak []int64) (RevisionFit, error) {
	m := big.NewInt(int64(len(rows)))
	var sx, sy, sxx, sxy, t big.Int
	for i := range rows {
		x, y := big.NewInt(rows[i]), big.NewInt(residual[i])
		sx.Add(&sx, x)
		sy.Add(&sy, y)
		sxx.Add(&sxx, t.Mul(x, x))
		sxy.Add(&sxy, t.Mul(x, y))
	}
	var d, u big.Int
	d.Sub(d.Mul(m, &sxx), u.Mul(&sx, &sx))
	var s, r *big.Int
	if d.Sign() == 0 {
		s, r = roundHalfAway(&sy, m), new(big.Int)
	} else {
		var rn, sn, v big.Int
		rn.Sub(rn.Mul(m, &sxy), v.Mul(&sx, &sy))
		sn.Sub(sn.Mul(&sxx, &sy), v.Mul(&sx, &sxy))
		s, r = roundHalfAway(&sn, &d), roundHalfAway(&rn, &d)
	}
	if !s.IsInt64() || !r.IsInt64() {
		return RevisionFit{}, errors.New("the fitted line's static_bytes or per_row_bytes is beyond int64; the residuals differ by more than any byte count between points of nearby rows")
	}
	f := RevisionFit{StaticBytes: Bytes(s.Int64()), PerRowBytes: Bytes(r.Int64())}
	before, after := new(big.Rat), new(big.Rat)
	var e big.Int
	for i := range rows {
		y := big.NewInt(residual[i])
		maxPercent(before, y, peak[i])
		e.Sub(y, s)
		e.Sub(&e, t.Mul(r, big.NewInt(rows[i])))
		maxPercent(after, &e, peak[i])
	}
	f.ErrorPercentBefore, _ = before.Float64()
	f.ErrorPercentAfter, _ = after.Float64()
	return f, nil
}

// maxPercent sets acc to |e| x 100 / peak when that is larger.
func maxPercent(acc *big.Rat, e *big.Int, peak int64) {
	var a big.Int
	a.Abs(e)
	a.Mul(&a, big.NewInt(100))
	q := new(big.Rat).SetFrac(&a, big.NewInt(peak))
	if q.Cmp(acc) > 0 {
		acc.Set(q)
	}
}

// roundHalfAway is num / den rounded to the nearest integer, halves away
// from zero; den != 0.
func roundHalfAway(num, den *big.Int) *big.Int {
	var q, rem big.Int
	q.QuoRem(num, den, &rem) // truncated toward zero; rem has num's sign
	var twice, absDen big.Int
	twice.Abs(&rem)
	twice.Lsh(&twice, 1)
	absDen.Abs(den)
	if twice.Cmp(&absDen) >= 0 {
		if num.Sign()*den.Sign() < 0 {
			q.Sub(&q, big.NewInt(1))
		} else {
			q.Add(&q, big.NewInt(1))
		}
	}
	return &q
}
