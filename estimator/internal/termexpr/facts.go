package termexpr

// compiler emits the program of an expression, operand after operand,
// and works out its Facts. A constant subexpression is folded into its
// value as soon as it is complete.
type compiler struct {
	prog []Instr
	uses uint64 // bit i: variable i is used
	err  string // the first problem
}

func (c *compiler) fail(msg string) Facts {
	if c.err == "" {
		c.err = msg
	}
	return Facts{}
}

// variable pushes variable i; dep: it depends on the piece.
func (c *compiler) variable(i int, dep bool) Facts {
	c.uses |= 1 << i
	c.prog = append(c.prog, Instr{OpPush, SrcVar, int64(i)})
	return Facts{Dep: dep, NonNeg: true, Safe: true, Subadd: true, Depth: 1}
}

// fold pushes a constant, or fails with the fault that computing it met.
func (c *compiler) fold(v int64, f Fault) Facts {
	if f.Kind != FaultNone {
		return c.fail(f.Message(-1))
	}
	c.prog = append(c.prog, Instr{OpPush, SrcConst, v})
	return Facts{Constant: true, Value: v, NonNeg: v >= 0, Safe: true, Subadd: v >= 0, Depth: 1}
}

// negate emits -a, whose program was just emitted.
func (c *compiler) negate(a Facts) Facts {
	if c.err != "" {
		return Facts{}
	}
	if a.Constant {
		c.prog = c.prog[:len(c.prog)-1] // replaced by the folded value
		return c.fold(negate(a.Value))
	}
	c.prog = append(c.prog, Instr{Op: OpNeg, Src: SrcStack})
	return Facts{Dep: a.Dep, Safe: !a.Dep, Depth: a.Depth}
}

// binary emits op over a and b, whose programs were just emitted, b's
// last.
func (c *compiler) binary(op Op, a, b Facts) Facts {
	if c.err != "" {
		return Facts{}
	}
	if a.Constant && b.Constant {
		c.prog = c.prog[:len(c.prog)-2]
		return c.fold(apply(op, a.Value, b.Value))
	}
	// A constant operand that makes a division fail at every piece is an
	// error now, not when the config is priced.
	if op == OpDiv || op == OpCeil {
		if b.Constant && b.Value <= 0 {
			return c.fail(Fault{FaultDivZero, b.Value}.Message(-1))
		}
		if a.Constant && a.Value < 0 {
			return c.fail(Fault{FaultDivNegative, a.Value}.Message(-1))
		}
	}
	// An operand that is a constant or a variable is taken from the
	// instruction rather than pushed and popped.
	if last := &c.prog[len(c.prog)-1]; last.Op == OpPush {
		last.Op = op
	} else {
		c.prog = append(c.prog, Instr{Op: op, Src: SrcStack})
	}
	f := Facts{Dep: a.Dep || b.Dep, Depth: max(a.Depth, b.Depth+1)}
	// A subexpression that does not depend on the piece is the same for
	// every piece: it is safe whatever its value. A piece-dependent one
	// is safe when its operands are, as each rule below shows.
	switch op {
	case OpAdd:
		f.NonNeg = a.NonNeg && b.NonNeg
		f.Safe = a.Safe && b.Safe && f.NonNeg
		f.Subadd = a.Subadd && b.Subadd
	case OpSub:
		f.Safe = !f.Dep
	case OpMul:
		f.NonNeg = a.NonNeg && b.NonNeg
		f.Safe = a.Safe && b.Safe && f.NonNeg
		// c x f(x) + c x f(y) >= c x f(x + y) when c does not depend
		// on the piece; the product of two piece quantities does not.
		f.Subadd = a.Subadd && b.Subadd && (!a.Dep || !b.Dep)
	case OpDiv, OpCeil:
		f.NonNeg = true
		f.Safe = a.Safe && a.NonNeg && !b.Dep
		// ceil is subadditive, floor is not: floor(1/2) + floor(1/2) <
		// floor(2/2).
		f.Subadd = a.Subadd && !b.Dep && (op == OpCeil || !a.Dep)
	case OpMin:
		f.NonNeg = a.NonNeg && b.NonNeg
		f.Safe = a.Safe && b.Safe && f.NonNeg
		f.Subadd = a.Subadd && b.Subadd && (!a.Dep || !b.Dep)
	case OpMax:
		f.NonNeg = a.NonNeg || b.NonNeg
		f.Safe = a.Safe && b.Safe && a.NonNeg && b.NonNeg
		f.Subadd = a.Subadd && b.Subadd
	}
	if !f.Dep {
		f.Safe, f.Subadd = true, f.NonNeg
	}
	f.Subadd = f.Subadd && f.Safe
	return f
}
