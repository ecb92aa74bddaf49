package estimator

import (
	"math/big"
	"strings"
)

// ParseGiB reads a size in GiB as a person types it ("63.75", "64",
// "1,024.5") and returns the nearest whole number of bytes (halves round
// up). Commas and underscores are dropped wherever they are, as before
// units were taken. It also takes a byte unit: "80GiB", "1.5 TiB",
// "80 GB", "512MiB", "8e10 B" (the units of ParseBytes), and an exponent
// ("6.375e1"). A figure in GiB (no unit, or GiB) rounds to the nearest
// byte, since a GiB decimal such as 82.182 names no whole number of bytes;
// a figure in any other unit must be a whole number of bytes, as in
// ParseBytes ("1.5 B" is refused with the reason). Negative, non-finite,
// hexadecimal and non-ASCII text is refused with the reason.
func ParseGiB(text string) (int64, error) {
	s := strings.TrimSpace(text)
	s = strings.NewReplacer(",", "", "_", "").Replace(s)
	if s == "" {
		return 0, parseError("is empty")
	}
	plain := true
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r == '.') {
			plain = false
			break
		}
	}
	if plain { // what ParseGiB took before units, read as it was
		rat, ok := new(big.Rat).SetString(s)
		if !ok {
			return 0, parseError(notGiB(text))
		}
		return roundGiB(rat, text)
	}
	n, ok := scanNumber(s, false)
	if !ok {
		return 0, parseError(whyNotGiB(text))
	}
	if n.neg {
		return 0, parseError(notGiB(text))
	}
	if u := strings.ToLower(n.unit); u != "" && u != "gib" {
		return exactValue(s, n, byteUnits, "bytes", "is beyond the range of a 64-bit byte count: ")
	}
	if n.nd == 0 {
		return 0, nil
	}
	if n.nd-1+n.exp10 >= 10 { // at least 10^10 GiB
		return 0, parseError("is beyond the range of a 64-bit byte count: " + quote(text))
	}
	if n.nd+n.exp10 <= -11 { // below 10^-11 GiB: under 0.011 bytes
		return 0, nil
	}
	return roundGiB(n.rat(1), text)
}

// roundGiB is x GiB in bytes, rounded half up.
func roundGiB(x *big.Rat, text string) (int64, error) {
	rat := new(big.Rat).Mul(x, new(big.Rat).SetInt64(1<<30))
	// round half up: floor(x + 1/2)
	rat.Add(rat, big.NewRat(1, 2))
	n := new(big.Int).Quo(rat.Num(), rat.Denom())
	if !n.IsInt64() {
		return 0, parseError("is beyond the range of a 64-bit byte count: " + quote(text))
	}
	return n.Int64(), nil
}

func notGiB(text string) string {
	return "must be a non-negative number of GiB, like 63.75: " + quote(text)
}

// whyNotGiB says why text is no size: the reasons of ParseCount where they
// apply, else the GiB field's own message.
func whyNotGiB(text string) string {
	why := whyNotNumber(text)
	if strings.HasPrefix(why, "is not an integer") || strings.HasPrefix(why, "must be a whole number") {
		return notGiB(text)
	}
	if strings.HasPrefix(why, "is not a finite integer") {
		return "is not a finite number: " + quote(text)
	}
	return why
}

func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return "\"" + s + "\""
}
