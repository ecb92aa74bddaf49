package chart

import (
	"math"
	"strconv"
	"strings"

	"gonum.org/v1/plot"

	"headroom/estimator"
)

// niceTicks returns about n labelled ticks in [lo, hi] at 1, 2 or 5 times a
// power of ten, in units of unit (1 << 30 labels bytes in GiB).
func niceTicks(lo, hi, unit float64, n int) []plot.Tick {
	a, b := lo/unit, hi/unit
	span := b - a
	if !(span > 0) || math.IsInf(span, 0) {
		return nil
	}
	mag := math.Pow(10, math.Floor(math.Log10(span/float64(n))))
	step := 10 * mag
	for _, m := range [...]float64{1, 2, 5} {
		if m*mag >= span/float64(n) {
			step = m * mag
			break
		}
	}
	var ticks []plot.Tick
	for k := math.Ceil(a / step); k*step <= b; k++ {
		v := k * step
		ticks = append(ticks, plot.Tick{Value: v * unit, Label: compactNumber(v, step)})
	}
	return ticks
}

// compactNumber writes a tick value v (a multiple of step) briefly:
// 200k, 1.5M, 0.25, or with digit groups when a suffix would need more
// than two decimals (1,000,001).
func compactNumber(v, step float64) string {
	for _, s := range [...]struct {
		div    float64
		suffix string
	}{{1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if dec := decimals(step / s.div); math.Abs(v) >= s.div && dec <= 2 {
			return trimZeros(strconv.FormatFloat(v/s.div, 'f', dec, 64)) + s.suffix
		}
	}
	if dec := decimals(step); dec > 0 {
		return strconv.FormatFloat(v, 'f', dec, 64)
	}
	if math.Abs(v) < 1<<62 {
		return estimator.Group(int64(math.Round(v)))
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// decimals is the number of decimals that shows multiples of step exactly.
func decimals(step float64) int {
	return max(0, int(-math.Floor(math.Log10(step)+1e-9)))
}

func trimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}

// currentLabel names the axis input's current value.
func currentLabel(axis *estimator.Field, v int64) string {
	if byteAxis(axis) {
		return axis.Key + " = " + estimator.Bytes(v).GiBString() + " GiB"
	}
	return axis.Key + " = " + estimator.Group(v)
}
