package estimator

import (
	"math/big"
	"net/url"
	"strings"
)

// EncodeQuery writes c as URL query values, one per field (by its short
// name) that differs from Default(), so a link stays short and readable;
// a baseline of its own adds its keys ("b.", see query_baseline.go), and
// observed points one "obs" value each (query_observed.go), and
// each term one "term" value (query_terms.go).
func EncodeQuery(c Config) url.Values {
	q := url.Values{}
	def := Default()
	for _, f := range fields {
		if v := f.Text(&c); v != f.Text(&def) {
			if v == "" {
				v = "auto" // an optional field back to its default
			}
			q.Set(f.Key, v)
		}
	}
	encodeProfile(q, c)
	encodeBaseline(q, c.Baseline)
	encodeObserved(q, c.Observed)
	encodeTerms(q, c.Terms)
	return q
}

// DecodeQuery reads a config from URL query values (as EncodeQuery writes
// them; keys that are not fields are ignored, so a page can keep its own
// keys beside them). A value that does not parse, or is out of range, is
// reported in errs and its field keeps its default, so the returned config
// is always valid and everything else the link said is kept. Each error's
// Field is the field's path. Keys starting "b." are a baseline of its own
// (query_baseline.go); an override that does not parse, or that makes the
// baseline invalid, is reported and dropped. Each "obs" value is an
// observed point (query_observed.go); a bad one is reported and dropped.
// Each "term" is a term (query_terms.go); a bad one is reported and
// dropped, the others kept.
func DecodeQuery(q url.Values) (Config, ErrorList) {
	c := Default()
	var errs ErrorList
	for _, f := range fields {
		vals, ok := q[f.Key]
		if !ok || len(vals) == 0 {
			continue
		}
		if err := f.SetText(&c, vals[len(vals)-1]); err != nil {
			errs = append(errs, FieldErrors(err)...)
		}
	}
	b, berrs := decodeBaselineQuery(q)
	c.Baseline = b
	obs, oerrs := decodeObservedQuery(q)
	c.Observed = obs
	terms, terrs := decodeTermsQuery(q[QueryTermKey])
	c.Terms = terms
	berrs = append(berrs, terrs...)
	errs = append(errs, decodeProfileQuery(q, &c)...)
	c, more := Repair(c)
	return c, append(append(append(errs, berrs...), oerrs...), more...)
}

// Repair returns c with every field that fails validation put back to its
// default, and the errors that caused it. Cross-field limits are repaired
// by resetting the dependent field (projected_rows, target_rows,
// in_use_bytes). Then a baseline of its own that is invalid loses the
// overrides that make it so (see repairBaseline).
func Repair(c Config) (Config, ErrorList) {
	var all ErrorList
	def := Default()
	for range 4 { // each pass fixes at least one field; cross checks need at most three
		_, err := c.Resolve()
		if err == nil {
			c, more := repairBaseline(c)
			return c, append(all, more...)
		}
		for _, e := range FieldErrors(err) {
			all = append(all, e)
			if repairArt(&c, e) {
				continue
			}
			f, ok := fieldByPath[e.Field]
			if !ok {
				continue
			}
			if f.Optional {
				f.Unset(&c)
				continue
			}
			v, _ := f.Int(&def)
			f.SetInt(&c, v)
		}
	}
	return def, all
}

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
