package estimator

import (
	"math/big"
	"strconv"
	"strings"
)

// Unit is what an integer field counts: bytes, or things (rows, widths,
// layers, experts). It decides which suffixes a typed value may carry.
type Unit int

const (
	// NoUnit is a switch (a BoolField).
	NoUnit Unit = iota
	// CountUnit counts things: rows, widths, heads, percent. A typed count
	// may end in k, M, G or T (powers of 1000).
	CountUnit
	// ByteUnit counts bytes. A typed byte count may end in a decimal
	// (B, kB, MB, GB, TB, PB; k, M, G, T, P) or a binary unit (KiB, MiB,
	// GiB, TiB, PiB).
	ByteUnit
)

// Unit is what the field counts, read from its key: a key ending in
// "_bytes" (capacity_bytes, in_use_bytes, retained_per_row_bytes,
// allocator_round_bytes, dtype_bytes) holds bytes; every other integer
// field is a count. The rule is the naming rule of docs/model.md §2's
// fields, so a field added later gets its unit without a second list.
func (f *Field) Unit() Unit {
	switch {
	case f.Kind == BoolField:
		return NoUnit
	case strings.HasSuffix(f.Key, "_bytes"), strings.HasSuffix(f.Key, "_bytes_per_layer"):
		return ByteUnit
	}
	return CountUnit
}

// noun is the word a message uses for one of the field's units: "rows"
// for the row counts, "bytes" for byte fields, none for other counts.
func (f *Field) noun() string {
	switch {
	case f.Unit() == ByteUnit:
		return "bytes"
	case f.Key == "rows" || strings.HasSuffix(f.Key, "_rows"):
		return "rows"
	}
	return ""
}

// Parse reads text as the field takes it (ParseBytes for a byte field,
// ParseCount for a count), with messages that name the field's unit. It
// does not check the field's range: Resolve does.
func (f *Field) Parse(text string) (int64, error) {
	if f.Unit() == ByteUnit {
		return parseExact(text, byteUnits, f.noun())
	}
	return parseExact(text, countUnits, f.noun())
}

// Scales of the suffixes. A suffix matches case-insensitively ("gib",
// "GiB" and "GIB" are one unit; "m" is mega: no field holds a fraction).
var (
	countUnits = map[string]int64{
		"k": 1e3, "m": 1e6, "g": 1e9, "t": 1e12,
	}
	byteUnits = map[string]int64{
		"b": 1,
		"k": 1e3, "kb": 1e3, "m": 1e6, "mb": 1e6, "g": 1e9, "gb": 1e9, "t": 1e12, "tb": 1e12, "p": 1e15, "pb": 1e15,
		"kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40, "pib": 1 << 50,
	}
)

// ParseCount reads a count as a person types it: an integer as ParseInt
// takes it ("64,902", "64_902", "-3"), or a decimal number with an
// optional exponent and an optional suffix k (10^3), M (10^6), G (10^9)
// or T (10^12), space allowed before the suffix: "64k" is 64,000 (k is
// 1000 on counts too, never 1024), "1.5M" is 1,500,000, "8e10" is
// 80,000,000,000. The value must be a whole number; "1.5" is refused with
// the reason, as are byte units, hexadecimal, NaN, Infinity, non-ASCII
// digits and anything beyond int64. Every text ParseInt accepts reads the
// same here.
func ParseCount(text string) (int64, error) { return parseExact(text, countUnits, "") }

// ParseBytes reads a byte count as a person types it: what ParseCount
// takes, and the byte units: B (1), the decimal kB, MB, GB, TB, PB (also
// k, M, G, T, P; powers of 1000: "80 GB" is 80,000,000,000) and the binary
// KiB, MiB, GiB, TiB, PiB (powers of 1024: "80GiB" is 85,899,345,920,
// "1.5TiB" 1,649,267,441,664). Suffixes match case-insensitively; there
// are no bit units. A fraction of a byte is refused with the reason.
func ParseBytes(text string) (int64, error) { return parseExact(text, byteUnits, "bytes") }

// number is a typed decimal split into its parts: the value is
// sign x mant x 10^exp10, times the scale of unit.
type number struct {
	neg   bool
	mant  *big.Int
	exp10 int64
	unit  string // the suffix as typed, "" for none
	nd    int64  // significant digits of mant (0 when mant is 0)
}

// scanNumber splits s (trimmed, non-empty) into a number. sep allows
// "," and "_" between two digits of the integer part. ok is false when s
// is not of that shape; the caller then says why.
func scanNumber(s string, sep bool) (n number, ok bool) {
	i := 0
	if s[0] == '-' || s[0] == '+' {
		n.neg = s[0] == '-'
		i++
	}
	var digits []byte
	intStart := i
	for ; i < len(s); i++ {
		ch := s[i]
		if isDigit(ch) {
			digits = append(digits, ch)
			continue
		}
		if sep && (ch == ',' || ch == '_') && i > intStart && i+1 < len(s) && isDigit(s[i-1]) && isDigit(s[i+1]) {
			continue
		}
		break
	}
	frac := 0
	if i < len(s) && s[i] == '.' {
		i++
		for ; i < len(s) && isDigit(s[i]); i++ {
			digits = append(digits, s[i])
			frac++
		}
	}
	if len(digits) == 0 {
		return n, false
	}
	var exp int64
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		j := i + 1
		eneg := false
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			eneg = s[j] == '-'
			j++
		}
		if j < len(s) && isDigit(s[j]) {
			for ; j < len(s) && isDigit(s[j]); j++ {
				if exp < 1e6 { // saturate: past 10^6 every value is 0, a fraction or too large
					exp = exp*10 + int64(s[j]-'0')
				}
			}
			if eneg {
				exp = -exp
			}
			i = j
		}
	}
	rest := strings.TrimLeft(s[i:], " \t")
	for k := 0; k < len(rest); k++ {
		if !(rest[k] >= 'a' && rest[k] <= 'z' || rest[k] >= 'A' && rest[k] <= 'Z') {
			return n, false
		}
	}
	n.unit = rest
	n.mant, _ = new(big.Int).SetString(string(digits), 10)
	n.exp10 = exp - int64(frac)
	if n.mant.Sign() != 0 {
		n.nd = int64(len(strings.TrimLeft(string(digits), "0")))
	}
	return n, true
}

// rat is the exact value of n times scale. Callers first check that the
// magnitude is between about 10^-16 and 10^20, so |exp10| is at most the
// number of digits typed plus 20 and the power stays small.
func (n number) rat(scale int64) *big.Rat {
	num := new(big.Int).Mul(n.mant, big.NewInt(scale))
	den := big.NewInt(1)
	p := new(big.Int).Exp(big.NewInt(10), big.NewInt(abs64(n.exp10)), nil)
	if n.exp10 >= 0 {
		num.Mul(num, p)
	} else {
		den = p
	}
	if n.neg {
		num.Neg(num)
	}
	return new(big.Rat).SetFrac(num, den)
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// parseExact is ParseCount and ParseBytes: units is the suffix table,
// noun the word for one unit in messages ("rows", "bytes", or "").
func parseExact(text string, units map[string]int64, noun string) (int64, error) {
	s := strings.TrimSpace(text)
	if s == "" {
		return 0, parseError("is empty")
	}
	n, ok := scanNumber(s, true)
	if !ok {
		return 0, parseError(whyNotNumber(text))
	}
	return exactValue(s, n, units, noun, "is beyond the range of a 64-bit integer: ")
}

// exactValue is the whole number n stands for (s is its trimmed text),
// or the reason it is none: an unknown unit, a fraction of a unit, or
// beyond int64 (the message then starts with tooLarge).
func exactValue(s string, n number, units map[string]int64, noun, tooLarge string) (int64, error) {
	scale := int64(1)
	if n.unit != "" {
		sc, known := units[strings.ToLower(n.unit)]
		if !known {
			return 0, parseError(unknownUnit(s, n.unit, units))
		}
		scale = sc
	}
	if n.nd == 0 {
		return 0, nil
	}
	// |value| >= 10^(nd-1+exp10), and every scale is below 10^16.
	if n.nd-1+n.exp10 >= 19 {
		return 0, parseError(tooLarge + quote(s))
	}
	if n.nd+n.exp10 <= -16 {
		return 0, parseError(notWhole(s, n, nil, noun))
	}
	r := n.rat(scale)
	if !r.IsInt() {
		return 0, parseError(notWhole(s, n, r, noun))
	}
	if !r.Num().IsInt64() {
		return 0, parseError(tooLarge + quote(s))
	}
	return r.Num().Int64(), nil
}

// notWhole says that s is a fraction of a unit: "1.5 rows is not a whole
// number of rows", "1.0005k is 1,000.5 rows, not a whole number of rows".
// r is the exact value, nil when it is too small or long to show.
func notWhole(s string, n number, r *big.Rat, noun string) string {
	of := "a whole number"
	if noun != "" {
		of += " of " + noun
	}
	decimals := -n.exp10
	if n.unit == "" || r == nil || decimals > 12 {
		if noun != "" && n.unit == "" {
			return clip(s) + " " + noun + " is not " + of
		}
		return clip(s) + " is not " + of
	}
	shown := groupDecimal(r.FloatString(int(decimals)))
	if noun != "" {
		shown += " " + noun
	}
	return clip(s) + " is " + shown + ", not " + of
}

// groupDecimal puts thousands separators into the integer part of a
// decimal ("-1000.5" -> "-1,000.5") and drops trailing zeros of the
// fraction.
func groupDecimal(d string) string {
	intPart, frac, _ := strings.Cut(d, ".")
	frac = strings.TrimRight(frac, "0")
	v, err := strconv.ParseInt(intPart, 10, 64)
	out := intPart
	if err == nil {
		out = Group(v)
		if v == 0 && strings.HasPrefix(intPart, "-") {
			out = "-0"
		}
	}
	if frac != "" {
		out += "." + frac
	}
	return out
}

// unitList names a table's suffixes for messages.
func unitList(units map[string]int64) string {
	if _, bytes := units["gib"]; bytes {
		return "B, kB, MB, GB, TB, PB (powers of 1000) or KiB, MiB, GiB, TiB, PiB (powers of 1024)"
	}
	return "k, M, G or T (powers of 1000)"
}

// unknownUnit says why a suffix is refused. An unknown suffix keeps the
// message a plain integer field gave before units ("12a" is "not an
// integer"); a byte unit on a count says so.
func unknownUnit(text, unit string, units map[string]int64) string {
	if _, bytes := units["gib"]; bytes {
		return "has an unknown unit " + strconv.Quote(unit) + ": " + quote(text) + "; a byte count may end in " + unitList(units)
	}
	if _, isByte := byteUnits[strings.ToLower(unit)]; isByte {
		return "is a count, so it takes no byte unit: " + quote(text) + "; a count may end in " + unitList(units)
	}
	return "is not an integer: " + quote(text)
}

// whyNotNumber says why text is not a number at all: hexadecimal,
// non-finite, non-ASCII digits, or not an integer.
func whyNotNumber(text string) string {
	t := strings.ToLower(strings.TrimSpace(text))
	u := strings.TrimLeft(t, "+-")
	if strings.HasPrefix(u, "0x") || strings.HasPrefix(u, "0o") || strings.HasPrefix(u, "0b") {
		return "must be written in decimal digits, not hexadecimal, octal or binary: " + quote(text)
	}
	return notIntegerReason(text)
}
