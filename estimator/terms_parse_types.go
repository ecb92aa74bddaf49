package estimator

// This file parses the Go types that may appear in an expression (as
// conversions, composite literal types, type arguments), as far as
// parseTermExpr needs to accept the same texts as Go's parser; a term
// can use none of them.

// typ parses a type, or fails.
func (p *termParser) typ() *exprNode {
	if x := p.tryType(); x != nil {
		return x
	}
	p.fail("expected a type")
	return other()
}

// tryType parses a type if one starts here, else returns nil.
func (p *termParser) tryType() *exprNode {
	switch {
	case p.tok.kind == tokIdent:
		x := p.typeName()
		if p.is("[") {
			x = p.typeArgs(x)
		}
		return x
	case p.is("["):
		p.next()
		return p.arrayType()
	case p.is("*"):
		p.next()
		return &exprNode{kind: nodeStar, x: p.typ()}
	case p.is("("):
		p.next()
		x := p.typ()
		p.expect(")")
		return &exprNode{kind: nodeParen, x: x}
	case p.isKeyword("chan") || p.is("<-"):
		return p.chanType()
	case p.isKeyword("map"):
		p.next()
		p.expect("[")
		p.typ()
		p.expect("]")
		p.typ()
		return &exprNode{kind: nodeMap}
	case p.isKeyword("struct"):
		p.next()
		p.expect("{")
		p.structFields()
		p.expect("}")
		return &exprNode{kind: nodeStruct}
	case p.isKeyword("interface"):
		p.next()
		p.expect("{")
		p.interfaceElems()
		p.expect("}")
		return other()
	case p.isKeyword("func"):
		p.funcType()
		return other()
	}
	return nil
}

// startsType says whether a type starts at the token.
func (p *termParser) startsType() bool {
	if p.tok.kind == tokIdent {
		return true
	}
	for _, s := range []string{"[", "*", "(", "<-"} {
		if p.is(s) {
			return true
		}
	}
	for _, kw := range []string{"struct", "func", "interface", "map", "chan"} {
		if p.isKeyword(kw) {
			return true
		}
	}
	return false
}

// typeName parses a name, or a package's name and a name.
func (p *termParser) typeName() *exprNode {
	x := &exprNode{kind: nodeIdent, text: p.tok.lit}
	p.next()
	if p.is(".") {
		p.next()
		if p.tok.kind != tokIdent {
			p.fail("expected a name")
		}
		p.next()
		return &exprNode{kind: nodeSelector, x: x}
	}
	return x
}

// typeArgs parses the type arguments in brackets after the type x.
func (p *termParser) typeArgs(x *exprNode) *exprNode {
	p.next()
	n := 0
	for !p.is("]") && p.tok.kind != tokEOF {
		p.typ()
		n++
		if !p.is(",") {
			break
		}
		p.next()
	}
	p.expect("]")
	if n == 0 {
		p.fail("expected type arguments")
	}
	return &exprNode{kind: nodeIndex, x: x}
}

// arrayType parses an array or slice type after its "[".
func (p *termParser) arrayType() *exprNode {
	if p.is("...") {
		p.next()
	} else if !p.is("]") {
		p.expr()
	}
	p.expect("]")
	return &exprNode{kind: nodeArray, x: p.typ()}
}

// chanType parses a channel type: chan T, chan<- T or <-chan T.
func (p *termParser) chanType() *exprNode {
	dir := uint8(chanSend | chanRecv)
	if p.isKeyword("chan") {
		p.next()
		if p.is("<-") {
			p.next()
			dir = chanSend
		}
	} else {
		p.next()
		if !p.isKeyword("chan") {
			p.fail("expected 'chan'")
		}
		p.next()
		dir = chanRecv
	}
	return &exprNode{kind: nodeChan, dir: dir, x: p.typ()}
}

// funcType parses a function type.
func (p *termParser) funcType() {
	p.next()
	if p.is("[") {
		p.fail("a function type has no type parameters")
	}
	p.signature()
}
