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

// artVarDocs say what a variable means under ART's code where it differs
// from varDocs, or is ART's own (docs/model.md §13.13).
var artVarDocs = map[string]string{
	"p": "its projected rows (the head's rows before the chunk cap)", "t": "its labelled rows",
	"r": "its routed rows, 0 where ART does not price the MoE", "D": "the head chunk, h x Vp x 2",
	"Dt": "the rejection bound's target chunk", "q": "the piece's sequences", "h": "the head's rows",
	"hb": "the rejection bound's head rows", "Db": "hb x Vp x 2", "B": "ART's boundaries, g x n x L x H x 2",
	"ng": "the gradient rows", "m": "the request's sequences", "Vp": "the padded vocabulary",
	"gamma": "adapter gradient bytes per layer", "omicron": "adapter gradient bytes outside the decoder",
	"pct": "safety_percent", "cf": "1 where ART's checkpoint floor applies", "gf": "1 where ART prices the GDN floor",
}

// ArtTermVariableDoc says what the term variable name is under ART's
// code (ArtTermVariables lists them): its meaning there, else the seeds'
// (TermVariableDoc).
func ArtTermVariableDoc(name string) string {
	if d, ok := artVarDocs[name]; ok {
		return d
	}
	return TermVariableDoc(name)
}
