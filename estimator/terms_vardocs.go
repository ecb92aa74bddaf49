package estimator

// varDocs say what each variable of a term's bytes is, in varNames'
// order: the page's help shows them beside a term (docs/model.md §8).
// One entry per variable: a new variable does not compile without its
// words.
var varDocs = [numVars]string{
	varN: "the piece's rows", varP: "its projected rows", varT: "its target rows",
	varR: "its FC2 routed rows", varD: "one head chunk of BF16 logits, min(p, C) x V x 2", varDt: "the same for target rows",
	varReqN: "the request's rows", varReqP: "its projected rows", varReqT: "its target rows", varS: "rows per sequence",
	varV: "vocabulary", varH: "width", varL: "layers", varK: "experts per token", varM: "expert FFN width",
	varI: "FC2 input width", varO: "FC2 output width", varB: "element size", varE: "expert-parallel size",
	varC: "head chunk rows", varTopK: "top-k outputs", varG: "1 when gradients are on",
	varHk: "GDN key heads", varDk: "GDN key head dim", varHv: "GDN value heads", varDv: "GDN value head dim",
	varX: "total routed experts (num_experts)",
}

// TermVariableDoc says what the term variable name is; "" for a name
// that is no variable (TermVariables lists them).
func TermVariableDoc(name string) string {
	for i, n := range varNames {
		if n == name {
			return varDocs[i]
		}
	}
	return ""
}
