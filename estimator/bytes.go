package estimator

import (
	"math"
	"math/bits"
	"strconv"
)

// Bytes is an exact byte count.
type Bytes int64

// GiB is the byte count in GiB (2^30 bytes), for display only.
func (b Bytes) GiB() float64 { return float64(b) / (1 << 30) }

// String shows the exact count and GiB with three decimals, as the seeds
// write it: "1,603,339,264 bytes (1.493 GiB)".
func (b Bytes) String() string {
	return Group(int64(b)) + " bytes (" + b.GiBString() + " GiB)"
}

// GiBString is the count in GiB with three decimals, without the unit.
func (b Bytes) GiBString() string {
	return strconv.FormatFloat(b.GiB(), 'f', 3, 64)
}

// Group writes n in decimal with a comma between groups of three digits.
func Group(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := false
	if n < 0 {
		neg, s = true, s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	if neg {
		out = append(out, '-')
	}
	for i := 0; i < len(s); i++ {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	return string(out)
}

// calc does checked int64 arithmetic on non-negative operands. The first
// overflow is kept in err with the names of the fields involved; results
// after it are meaningless, so a caller checks err once at the end and
// never uses a number computed after an overflow. The operations are kept
// small enough to inline: a sweep runs them millions of times, and calls
// are dear in WebAssembly.
type calc struct {
	err *Error
}

//go:noinline
func (c *calc) overflow(what string) int64 {
	if c.err == nil {
		c.err = &Error{Field: what, Message: "the product overflows int64 (more than 9,223,372,036,854,775,807 bytes); lower one of these values"}
	}
	return 0
}

// mul returns a x b, both >= 0. Two factors below 2^31 cannot overflow
// (the usual case); others take the 128-bit path.
func (c *calc) mul(a, b int64, what string) int64 {
	if (a|b)>>31 == 0 {
		return a * b
	}
	return c.mulWide(a, b, what)
}

//go:noinline
func (c *calc) mulWide(a, b int64, what string) int64 {
	hi, lo := bits.Mul64(uint64(a), uint64(b))
	if hi != 0 || lo > math.MaxInt64 {
		return c.overflow(what)
	}
	return int64(lo)
}

// add returns a + b, both >= 0: the sum wraps below a exactly when it
// overflows.
func (c *calc) add(a, b int64, what string) int64 {
	s := a + b
	if s < a {
		return c.overflow(what)
	}
	return s
}

// roundUp rounds n >= 0 up to a multiple of unit (>= 1).
func (c *calc) roundUp(n, unit int64, what string) int64 {
	var r int64
	if unit&(unit-1) == 0 {
		r = n & (unit - 1) // the usual block sizes are powers of two
	} else {
		r = n % unit
	}
	if r == 0 {
		return n
	}
	return c.add(n, unit-r, what)
}

// ceilDiv returns ceil(a / b) for a >= 0, b >= 1.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 {
		q++
	}
	return q
}
