package termexpr

import (
	"math"
	"math/bits"
	"strconv"
)

// Op is the operation of an instruction. Each instruction takes one
// operand b from its source (the constant Arg, the variable vars[Arg], or
// popped off the stack); a binary operation replaces the top of the
// stack, a, by a op b. So n * 2 is two instructions: push n, multiply by
// the constant 2.
type Op uint8

// The operations.
const (
	OpPush Op = iota // push b
	OpNeg            // push -b
	OpAdd
	OpSub
	OpMul
	OpDiv  // a / b rounded down; a >= 0, b > 0
	OpCeil // a / b rounded up; a >= 0, b > 0
	OpMin
	OpMax
)

// Src is where an instruction takes its operand.
type Src uint8

// The sources of an instruction's operand.
const (
	SrcStack Src = iota
	SrcConst
	SrcVar
)

// Instr is one instruction of a compiled expression.
type Instr struct {
	Op  Op
	Src Src
	Arg int64
}

// MaxStack bounds the operands pending while a program runs. An
// expression of at most MaxText bytes cannot need more: each pending
// operand takes at least an operand and an operator character.
const MaxStack = 130

// FaultKind says what went wrong when a program ran.
type FaultKind uint8

// The faults; FaultNone is no fault.
const (
	FaultNone FaultKind = iota
	FaultOverflow
	FaultDivZero     // Val is the divisor, <= 0
	FaultDivNegative // Val is the dividend, < 0
	FaultNegative    // Val is the (final) value, < 0
)

// Fault is a run-time error of an expression: what went wrong and the
// value involved. The zero value is no fault.
type Fault struct {
	Kind FaultKind
	Val  int64
}

// Message says what went wrong, for a piece of n rows (n < 0: no piece,
// the expression is constant), as a sentence starting with "bytes".
func (f Fault) Message(n int64) string {
	at := ""
	if n >= 0 {
		at = " for a piece of " + group(n) + " rows"
	}
	switch f.Kind {
	case FaultOverflow:
		return "bytes overflows int64" + at + " (an intermediate value is beyond ±9,223,372,036,854,775,807); the arithmetic is exact, so lower the values or rewrite the expression"
	case FaultDivZero:
		return "bytes divides by " + group(f.Val) + at + "; the divisor of / and of ceil(a, b) must be > 0"
	case FaultDivNegative:
		return "bytes divides a negative number (" + group(f.Val) + ")" + at + "; / and ceil(a, b) need a >= 0"
	case FaultNegative:
		return "bytes is negative (" + group(f.Val) + ")" + at + "; a tensor's bytes must be >= 0"
	}
	return "bytes fails"
}

// group writes n with a comma between groups of three digits, as
// estimator.Group does (this package cannot import it).
func group(n int64) string {
	s := strconv.FormatInt(n, 10)
	out := make([]byte, 0, len(s)+len(s)/3)
	digits := s
	if n < 0 {
		out, digits = append(out, '-'), s[1:]
	}
	for i := range len(digits) {
		if i > 0 && (len(digits)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, digits[i])
	}
	return string(out)
}

// apply runs one binary operation, checked.
func apply(op Op, a, b int64) (int64, Fault) {
	switch op {
	case OpAdd:
		s := a + b
		if (s^a)&(s^b) < 0 {
			return 0, Fault{Kind: FaultOverflow}
		}
		return s, Fault{}
	case OpSub:
		s := a - b
		if (a^b)&(a^s) < 0 {
			return 0, Fault{Kind: FaultOverflow}
		}
		return s, Fault{}
	case OpMul:
		v, ok := MulChecked(a, b)
		if !ok {
			return 0, Fault{Kind: FaultOverflow}
		}
		return v, Fault{}
	case OpDiv, OpCeil:
		if b <= 0 {
			return 0, Fault{FaultDivZero, b}
		}
		if a < 0 {
			return 0, Fault{FaultDivNegative, a}
		}
		q := a / b
		if op == OpCeil && a%b != 0 {
			q++
		}
		return q, Fault{}
	case OpMin:
		return min(a, b), Fault{}
	case OpMax:
		return max(a, b), Fault{}
	}
	return 0, Fault{Kind: FaultOverflow}
}

// MulChecked is a x b, and false when the product does not fit an int64.
func MulChecked(a, b int64) (int64, bool) {
	if uint64(a+1<<31) < 1<<32 && uint64(b+1<<31) < 1<<32 {
		return a * b, true // |a|, |b| <= 2^31: no overflow
	}
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
		return int64(lo), true
	case neg && lo <= 1<<63:
		return -int64(lo), true // -2^63 wraps to itself: exact
	}
	return 0, false
}

func negate(a int64) (int64, Fault) {
	if a == math.MinInt64 {
		return 0, Fault{Kind: FaultOverflow}
	}
	return -a, Fault{}
}

// Run evaluates a program with the variables vars; st is scratch space
// for its operands. A negative final value is a FaultNegative.
func Run(prog []Instr, vars []int64, st *[MaxStack]int64) (int64, Fault) {
	sp := 0
	for i := range prog {
		in := &prog[i]
		b := in.Arg
		switch in.Src {
		case SrcVar:
			b = vars[b]
		case SrcStack:
			sp--
			b = st[sp]
		}
		switch in.Op {
		case OpPush:
			st[sp] = b
			sp++
		case OpNeg:
			v, f := negate(b)
			if f.Kind != FaultNone {
				return 0, f
			}
			st[sp] = v
			sp++
		default:
			v, f := apply(in.Op, st[sp-1], b)
			if f.Kind != FaultNone {
				return 0, f
			}
			st[sp-1] = v
		}
	}
	v := st[0]
	if v < 0 {
		return 0, Fault{FaultNegative, v}
	}
	return v, Fault{}
}

// RunFast is Run for pricing: it says only whether the program failed
// (the error path re-runs it with Run for the message), and it keeps the
// top of the stack in a register, so that a chain such as r * H * b
// touches no memory but the variables.
func RunFast(prog []Instr, vars []int64, st *[MaxStack]int64) (int64, bool) {
	var acc int64 // the top of the stack; st[0] holds nothing
	sp := 0
	for i := range prog {
		in := &prog[i]
		var b int64
		switch in.Src {
		case SrcConst:
			b = in.Arg
		case SrcVar:
			b = vars[in.Arg]
		default:
			sp--
			b, acc = acc, st[sp]
		}
		switch in.Op {
		case OpPush:
			st[sp] = acc
			sp++
			acc = b
		case OpAdd:
			s := acc + b
			if (s^acc)&(s^b) < 0 {
				return 0, false
			}
			acc = s
		case OpMul:
			if uint64(acc+1<<31) < 1<<32 && uint64(b+1<<31) < 1<<32 {
				acc *= b // in line: a call is dear in WebAssembly
				break
			}
			v, ok := MulChecked(acc, b)
			if !ok {
				return 0, false
			}
			acc = v
		case OpSub:
			s := acc - b
			if (acc^b)&(acc^s) < 0 {
				return 0, false
			}
			acc = s
		case OpDiv, OpCeil:
			if b <= 0 || acc < 0 {
				return 0, false
			}
			q := acc / b
			if in.Op == OpCeil && q*b != acc {
				q++
			}
			acc = q
		case OpMin:
			acc = min(acc, b)
		case OpMax:
			acc = max(acc, b)
		case OpNeg: // b was the top: the stack is one shorter
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
