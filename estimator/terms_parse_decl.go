package estimator

// This file parses the insides of struct and interface types and of
// function signatures, as Go's parser does, for parseTermExpr to accept
// the same texts; a term can use none of them.

// signature parses a function's parameters and optional results.
func (p *termParser) signature() {
	p.params(true)
	if p.is("(") {
		p.params(false)
		return
	}
	p.tryType()
}

// params parses a parenthesized parameter list; dots says a final
// "...T" is allowed.
func (p *termParser) params(dots bool) {
	p.expect("(")
	if !p.is(")") {
		p.paramList(dots)
	}
	p.expect(")")
}

// param is what paramList needs to know of one parameter.
type param struct{ named, typed, dots bool }

// paramList parses parameters and checks them as Go does: either no
// parameter is named, or each is (names sharing the type to their
// right); "...T" only last, and only where dots allows it.
func (p *termParser) paramList(dots bool) {
	var list []param
	for !p.is(")") && p.tok.kind != tokEOF {
		list = append(list, p.paramDecl())
		if !p.is(",") {
			if !p.is(")") {
				p.fail("missing ',' in parameter list")
			}
			break
		}
		p.next()
	}
	named := 0
	for _, par := range list {
		if par.named && par.typed {
			named++
		}
	}
	if named > 0 && named < len(list) {
		typed, typeDots := false, false
		for i := len(list) - 1; i >= 0; i-- {
			switch par := &list[i]; {
			case par.typed:
				typed, typeDots = true, par.dots
				if !par.named {
					p.fail("missing parameter name")
				}
			case typed:
				par.typed, par.dots = true, typeDots
			default:
				p.fail("missing parameter type")
			}
		}
	}
	for i, par := range list {
		if par.dots && (!dots || i+1 < len(list)) {
			p.fail("can only use ... with final parameter")
		}
	}
}

// paramDecl parses one parameter: a name, a type, or both.
func (p *termParser) paramDecl() (par param) {
	switch {
	case p.tok.kind == tokIdent:
		p.next()
		par.named = true
		switch {
		case p.tok.kind == tokIdent || !p.is("[") && p.startsType():
			p.typ()
			par.typed = true
		case p.is("["):
			par.named, par.typed = p.arrayFieldOrInstance(), true
		case p.is("..."):
			p.next()
			p.typ()
			par.typed, par.dots = true, true
		case p.is("."):
			p.next()
			p.expectName()
			if p.is("[") {
				p.typeArgs(nil)
			}
			par.named, par.typed = false, true
		}
	case p.startsType():
		p.typ()
		par.typed = true
	case p.is("..."):
		p.next()
		p.typ()
		par.typed, par.dots = true, true
	default:
		p.fail("expected ')'")
	}
	return par
}

// arrayFieldOrInstance parses what follows a name and "[" where Go
// cannot yet tell a name and an array type ("a [2]T") from a generic
// type ("T[a, b]"); it says which it was (true: a name and its type).
func (p *termParser) arrayFieldOrInstance() bool {
	p.next()
	n, trailingComma := 0, false
	if !p.is("]") {
		p.expr()
		n++
		for p.is(",") {
			p.next()
			if p.is("]") {
				trailingComma = true
				break
			}
			p.expr()
			n++
		}
	}
	p.expect("]")
	if n == 0 {
		p.typ()
		return true
	}
	if n == 1 && p.tryType() != nil {
		if trailingComma {
			p.fail("unexpected comma; expecting ]")
		}
		return true
	}
	return false
}

// expectName moves past a name, or fails.
func (p *termParser) expectName() {
	if p.tok.kind != tokIdent {
		p.fail("expected a name")
	}
	p.next()
}

// expectSemi ends a field or an interface element: a semicolon or a
// newline, or nothing before ")" or "}".
func (p *termParser) expectSemi() {
	switch {
	case p.is(")") || p.is("}"):
	case p.tok.kind == tokSemi:
		p.next()
	default:
		p.fail("expected ';'")
	}
}

// structFields parses the fields of a struct type, up to its "}".
func (p *termParser) structFields() {
	for p.tok.kind == tokIdent || p.is("*") || p.is("(") {
		switch {
		case p.tok.kind == tokIdent:
			p.next()
			if p.is(".") || p.tok.kind == tokString || p.tok.kind == tokSemi || p.is("}") {
				// An embedded type.
				if p.is(".") {
					p.next()
					p.expectName()
					if p.is("[") {
						p.typeArgs(nil)
					}
				}
				break
			}
			names := 1
			for p.is(",") {
				p.next()
				p.expectName()
				names++
			}
			if names == 1 && p.is("[") {
				p.arrayFieldOrInstance()
			} else {
				p.typ()
			}
		case p.is("*"):
			p.next()
			if p.is("(") {
				p.fail("cannot parenthesize embedded type")
			}
			p.expectName()
			if p.is(".") {
				p.next()
				p.expectName()
			}
			if p.is("[") {
				p.typeArgs(nil)
			}
		default:
			p.fail("cannot parenthesize embedded type")
		}
		if p.tok.kind == tokString {
			p.next() // a tag
		}
		p.expectSemi()
	}
}

// interfaceElems parses the methods and embedded types of an interface
// type, up to its "}".
func (p *termParser) interfaceElems() {
	for {
		switch {
		case p.tok.kind == tokIdent:
			if !p.methodSpec() {
				p.embeddedElem(true)
			}
		case p.is("~"):
			p.embeddedElem(false)
		case p.tryType() != nil:
			p.embeddedElem(true)
		default:
			return
		}
		p.expectSemi()
	}
}

// methodSpec parses a method or an embedded type name of an interface;
// it says whether it was a method.
func (p *termParser) methodSpec() bool {
	p.next()
	if p.is(".") {
		p.next()
		p.expectName()
		if p.is("[") {
			p.typeArgs(nil)
		}
		return false
	}
	switch {
	case p.is("["):
		p.next()
		x := p.expr()
		if x.kind == nodeIdent && !p.is(",") && !p.is("]") {
			p.fail("interface method must have no type parameters")
			return true
		}
		if p.is(",") {
			p.next()
			for !p.is("]") && p.tok.kind != tokEOF {
				p.typ()
				if !p.is(",") {
					break
				}
				p.next()
			}
		}
		p.expect("]")
	case p.is("("):
		p.signature()
		return true
	}
	return false
}

// embeddedElem parses a union of terms of an interface; first says the
// first term was read already.
func (p *termParser) embeddedElem(first bool) {
	if !first {
		p.embeddedTerm()
	}
	for p.is("|") {
		p.next()
		p.embeddedTerm()
	}
}

// embeddedTerm parses ~T or T.
func (p *termParser) embeddedTerm() {
	if p.is("~") {
		p.next()
		p.typ()
		return
	}
	if p.tryType() == nil {
		p.fail("expected ~ term or type")
	}
}
