package measure

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
)

// jsonValue is a JSON value as Python's json module sees it: numbers keep
// their text (an integer stays an arbitrary-precision int, anything with
// '.', 'e' or 'E' is a float), objects keep their keys.
type jsonValue struct {
	kind jsonKind
	b    bool
	num  string
	str  string
	arr  []*jsonValue
	obj  map[string]*jsonValue
}

type jsonKind uint8

const (
	jNull jsonKind = iota
	jBool
	jInt
	jFloat
	jString
	jArray
	jObject
)

var errDuplicateKey = errors.New("duplicate report key")

// MaxJSONDepth is the deepest nesting of arrays and objects a report may
// have. Python's json, which ART reads reports with, stops at its
// recursion limit (1000 by default), so ART never reads a deeper one; and
// the reader here recurses once a level, so an unbounded depth is an
// unbounded stack (a stack overflow on the command line, the page's Go
// program dead in the browser).
const MaxJSONDepth = 1000

// MaxIntDigits is the most digits a report's integer may have: Python
// refuses to read a longer one (sys.int_info.default_max_str_digits), and
// reading one costs time quadratic in its digits.
const MaxIntDigits = 4300

// parseJSON reads one JSON value and refuses a repeated key in an object,
// as ART's decoder does; nesting past MaxJSONDepth is refused before any
// decoding, an integer past MaxIntDigits when it is met.
func parseJSON(data []byte) (*jsonValue, error) {
	if off, ok := jsonDepthWithin(data, MaxJSONDepth); !ok {
		return nil, fmt.Errorf("nests arrays and objects deeper than %d levels (at byte %d)", MaxJSONDepth, off)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec, 0)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("data after the report's JSON value")
	}
	return v, nil
}

// jsonDepthWithin scans data once, strings skipped, and reports whether
// its arrays and objects nest at most max deep; if not, the offset of the
// first bracket past max. It reads no value, so its cost is one pass
// whatever the nesting.
func jsonDepthWithin(data []byte, max int) (int, bool) {
	depth, inString := 0, false
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > max {
				return i, false
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return 0, true
}

func parseValue(dec *json.Decoder, depth int) (*jsonValue, error) {
	if depth > MaxJSONDepth { // jsonDepthWithin refuses such data first
		return nil, fmt.Errorf("nests deeper than %d levels", MaxJSONDepth)
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &jsonValue{kind: jNull}, nil
	case bool:
		return &jsonValue{kind: jBool, b: t}, nil
	case json.Number:
		if strings.ContainsAny(string(t), ".eE") {
			return &jsonValue{kind: jFloat, num: string(t)}, nil
		}
		if d := len(strings.TrimPrefix(string(t), "-")); d > MaxIntDigits {
			return nil, fmt.Errorf("an integer of %d digits, %s...: at most %d, as Python reads JSON", d, string(t)[:12], MaxIntDigits)
		}
		return &jsonValue{kind: jInt, num: string(t)}, nil
	case string:
		return &jsonValue{kind: jString, str: t}, nil
	case json.Delim:
		if t == '[' {
			v := &jsonValue{kind: jArray}
			for dec.More() {
				x, err := parseValue(dec, depth+1)
				if err != nil {
					return nil, err
				}
				v.arr = append(v.arr, x)
			}
			_, err := dec.Token()
			return v, err
		}
		v := &jsonValue{kind: jObject, obj: map[string]*jsonValue{}}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k := kt.(string)
			if _, dup := v.obj[k]; dup {
				return nil, fmt.Errorf("%w %s", errDuplicateKey, clipQuote(k))
			}
			x, err := parseValue(dec, depth+1)
			if err != nil {
				return nil, err
			}
			v.obj[k] = x
		}
		_, err := dec.Token()
		return v, err
	}
	return nil, fmt.Errorf("unexpected JSON token %v", tok)
}

// clipNumber is a number's text for a message: whole when short, else its
// first and last digits around its length, so a number of millions of
// digits never reaches an error line whole.
func clipNumber(s string) string {
	if len(s) <= 32 {
		return s
	}
	return s[:12] + "..." + s[len(s)-8:] + " (" + strconv.Itoa(len(s)) + " characters)"
}

// clipQuote is a string quoted for a message (control bytes escaped),
// its middle left out past 64 bytes, with its length.
func clipQuote(s string) string {
	if len(s) <= 64 {
		return strconv.Quote(s)
	}
	return strconv.Quote(strings.ToValidUTF8(s[:40], "")) + "..." + strconv.Quote(strings.ToValidUTF8(s[len(s)-16:], "")) + " (" + strconv.Itoa(len(s)) + " bytes)"
}

// canonical writes v as ART's _encode does (Python's json with
// sort_keys=True, separators (",", ":"), ensure_ascii and allow_nan=False)
// plus the final newline. A float that is not finite is an error.
func canonical(v *jsonValue) ([]byte, error) {
	var buf bytes.Buffer
	if err := writeCanonical(&buf, v); err != nil {
		return nil, err
	}
	buf.WriteByte('\n')
	return buf.Bytes(), nil
}

func writeCanonical(buf *bytes.Buffer, v *jsonValue) error {
	switch v.kind {
	case jNull:
		buf.WriteString("null")
	case jBool:
		buf.WriteString(strconv.FormatBool(v.b))
	case jInt:
		n, ok := new(big.Int).SetString(v.num, 10)
		if !ok {
			return fmt.Errorf("bad integer %s", clipNumber(v.num))
		}
		buf.WriteString(n.String())
	case jFloat:
		f, err := strconv.ParseFloat(v.num, 64)
		if err != nil || math.IsInf(f, 0) {
			return fmt.Errorf("the number %s is not a finite float", clipNumber(v.num))
		}
		buf.WriteString(pyFloatRepr(f))
	case jString:
		writePyString(buf, v.str)
	case jArray:
		buf.WriteByte('[')
		for i, x := range v.arr {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := writeCanonical(buf, x); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case jObject:
		keys := make([]string, 0, len(v.obj))
		for k := range v.obj {
			keys = append(keys, k)
		}
		sort.Strings(keys) // byte order of UTF-8 is code-point order, as Python sorts
		buf.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				buf.WriteByte(',')
			}
			writePyString(buf, k)
			buf.WriteByte(':')
			if err := writeCanonical(buf, v.obj[k]); err != nil {
				return err
			}
		}
		buf.WriteByte('}')
	}
	return nil
}

// writePyString escapes as Python's json does with ensure_ascii: the two
// short escapes for quote and backslash, \n \r \t \b \f, and \uXXXX
// (lower-case hex, surrogate pairs above U+FFFF) for everything else
// outside ' '..'~'.
func writePyString(buf *bytes.Buffer, s string) {
	buf.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			buf.WriteString(`\"`)
		case r == '\\':
			buf.WriteString(`\\`)
		case r == '\n':
			buf.WriteString(`\n`)
		case r == '\r':
			buf.WriteString(`\r`)
		case r == '\t':
			buf.WriteString(`\t`)
		case r == '\b':
			buf.WriteString(`\b`)
		case r == '\f':
			buf.WriteString(`\f`)
		case r >= ' ' && r <= '~':
			buf.WriteRune(r)
		case r > 0xffff:
			a, b := utf16.EncodeRune(r)
			fmt.Fprintf(buf, `\u%04x\u%04x`, a, b)
		default:
			fmt.Fprintf(buf, `\u%04x`, r)
		}
	}
	buf.WriteByte('"')
}

// pyFloatRepr is Python's repr of a finite float64: the shortest digits
// that read back as f, in positional form when the decimal point falls
// within -4 < point <= 16 (with ".0" for a whole number), else as
// d.ddde+XX with at least two exponent digits.
func pyFloatRepr(f float64) string {
	s := strconv.FormatFloat(f, 'e', -1, 64) // -d.ddde±XX
	sign := ""
	if s[0] == '-' {
		sign, s = "-", s[1:]
	}
	mant, expText, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expText)
	digits := strings.Replace(mant, ".", "", 1)
	point := exp + 1 // f = 0.digits x 10^point
	if f == 0 {
		return sign + "0.0"
	}
	if point > -4 && point <= 16 {
		switch {
		case point <= 0:
			return sign + "0." + strings.Repeat("0", -point) + digits
		case point >= len(digits):
			return sign + digits + strings.Repeat("0", point-len(digits)) + ".0"
		default:
			return sign + digits[:point] + "." + digits[point:]
		}
	}
	m := digits[:1]
	if len(digits) > 1 {
		m += "." + digits[1:]
	}
	e := exp
	esign := "+"
	if e < 0 {
		esign, e = "-", -e
	}
	return fmt.Sprintf("%s%se%s%02d", sign, m, esign, e)
}
