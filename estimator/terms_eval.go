package estimator

import (
	"math"
	"math/bits"
)

// Running a compiled term: exact int64 arithmetic, every step checked.

// termFault is a runtime error of a term: what went wrong and the value
// involved. The zero value is no error.
type termFault struct {
	kind uint8
	val  int64
}

const (
	faultNone uint8 = iota
	faultOverflow
	faultDivZero
	faultDivNegative
	faultNegative
)

// message says what went wrong, for a piece of n rows (n < 0: no piece,
// the expression is constant).
func (f termFault) message(n int64) string {
	at := ""
	if n >= 0 {
		at = " for a piece of " + Group(n) + " rows"
	}
	return "bytes " + f.what(at)
}

func (f termFault) what(at string) string {
	switch f.kind {
	case faultOverflow:
		return "overflows int64" + at + " (an intermediate value is beyond ±9,223,372,036,854,775,807); the arithmetic is exact, so lower the values or rewrite the expression"
	case faultDivZero:
		return "divides by " + Group(f.val) + at + "; the divisor of / and of ceil(a, b) must be > 0"
	case faultDivNegative:
		return "divides a negative number (" + Group(f.val) + ")" + at + "; / and ceil(a, b) need a >= 0"
	case faultNegative:
		return "is negative (" + Group(f.val) + ")" + at + "; a tensor's bytes must be >= 0"
	}
	return "fails"
}

// apply runs one binary operation, overflow-checked.
func apply(op termOp, a, b int64) (int64, termFault) {
	switch op {
	case opAdd:
		s := a + b
		if (s^a)&(s^b) < 0 {
			return 0, termFault{kind: faultOverflow}
		}
		return s, termFault{}
	case opSub:
		s := a - b
		if (a^b)&(a^s) < 0 {
			return 0, termFault{kind: faultOverflow}
		}
		return s, termFault{}
	case opMul:
		if uint64(a+1<<31) < 1<<32 && uint64(b+1<<31) < 1<<32 {
			return a * b, termFault{} // |a|, |b| <= 2^31: no overflow
		}
		return mulChecked(a, b)
	case opDiv, opCeil:
		if b <= 0 {
			return 0, termFault{faultDivZero, b}
		}
		if a < 0 {
			return 0, termFault{faultDivNegative, a}
		}
		q := a / b
		if op == opCeil && a%b != 0 {
			q++
		}
		return q, termFault{}
	case opMin:
		return min(a, b), termFault{}
	case opMax:
		return max(a, b), termFault{}
	}
	return 0, termFault{kind: faultOverflow}
}

func mulChecked(a, b int64) (int64, termFault) {
	neg := (a < 0) != (b < 0)
	ua, ub := uint64(a), uint64(b)
	if a < 0 {
		ua = -ua
	}
	if b < 0 {
		ub = -ub
	}
	hi, lo := bits.Mul64(ua, ub)
	switch {
	case hi != 0:
	case !neg && lo <= math.MaxInt64:
		return int64(lo), termFault{}
	case neg && lo <= 1<<63:
		return -int64(lo), termFault{} // -2^63 wraps to itself: exact
	}
	return 0, termFault{kind: faultOverflow}
}

func negate(a int64) (int64, termFault) {
	if a == math.MinInt64 {
		return 0, termFault{kind: faultOverflow}
	}
	return -a, termFault{}
}

// run evaluates a program. st is scratch space for its operands.
func run(prog []termInstr, vars *termVars, st *[maxTermStack]int64) (int64, termFault) {
	sp := 0
	for i := range prog {
		in := &prog[i]
		b := in.arg
		switch in.src {
		case srcVar:
			b = vars[b]
		case srcStack:
			sp--
			b = st[sp]
		}
		switch in.op {
		case opPush:
			st[sp] = b
			sp++
		case opNeg:
			v, f := negate(b)
			if f.kind != faultNone {
				return 0, f
			}
			st[sp] = v
			sp++
		default:
			v, f := apply(in.op, st[sp-1], b)
			if f.kind != faultNone {
				return 0, f
			}
			st[sp-1] = v
		}
	}
	v := st[0]
	if v < 0 {
		return 0, termFault{faultNegative, v}
	}
	return v, termFault{}
}

// runFast is run for pricing: it says only whether the program failed
// (the error path re-runs it with run for the message), and it keeps the
// top of the stack in a register, so that a chain such as r * H * b
// touches no memory but the variables.
func runFast(prog []termInstr, vars *termVars, st *[maxTermStack]int64) (int64, bool) {
	var acc int64 // the top of the stack; st[0] holds nothing
	sp := 0
	for i := range prog {
		in := &prog[i]
		var b int64
		switch in.src {
		case srcConst:
			b = in.arg
		case srcVar:
			b = vars[in.arg]
		default:
			sp--
			b, acc = acc, st[sp]
		}
		switch in.op {
		case opPush:
			st[sp] = acc
			sp++
			acc = b
		case opAdd:
			s := acc + b
			if (s^acc)&(s^b) < 0 {
				return 0, false
			}
			acc = s
		case opMul:
			if uint64(acc+1<<31) < 1<<32 && uint64(b+1<<31) < 1<<32 {
				acc *= b
				break
			}
			v, f := mulChecked(acc, b)
			if f.kind != faultNone {
				return 0, false
			}
			acc = v
		case opSub:
			s := acc - b
			if (acc^b)&(acc^s) < 0 {
				return 0, false
			}
			acc = s
		case opDiv, opCeil:
			if b <= 0 || acc < 0 {
				return 0, false
			}
			q := acc / b
			if in.op == opCeil && q*b != acc {
				q++
			}
			acc = q
		case opMin:
			acc = min(acc, b)
		case opMax:
			acc = max(acc, b)
		case opNeg: // b was the top: the stack is one shorter
			if b == math.MinInt64 {
				return 0, false
			}
			st[sp] = acc
			sp++
			acc = -b
		}
	}
	return acc, acc >= 0
}
