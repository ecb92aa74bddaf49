package estimator

import "headroom/estimator/internal/termexpr"

// The variables of a term's bytes (docs/model.md §8). The language itself,
// scanning to the checked run of a compiled program, is the package
// internal/termexpr; a config's terms are compiled once (terms_config.go)
// into programs over a fixed array of these variables, so that pricing a
// piece evaluates them without map lookups or allocations.

// The variables a term's bytes may use, in the order error messages list
// them. The first six are the piece's own; the others come from the
// resolved config the piece belongs to.
const (
	varN    = iota // n: the piece's rows
	varP           // p: its projected rows
	varT           // t: its target rows
	varR           // r: its FC2 routed rows
	varD           // D: min(p, C) x V x 2
	varDt          // Dt: min(t, C) x V x 2
	varReqN        // N
	varReqP        // P
	varReqT        // T
	varS           // s
	varV
	varH
	varL
	varK
	varM
	varI
	varO
	varB
	varE
	varC
	varTopK
	varG
	varHk
	varDk
	varHv
	varDv
	varX // X: the total number of routed experts (num_experts), 0 when not given
	numVars
	numPieceVars = varReqN
)

var varNames = [numVars]string{"n", "p", "t", "r", "D", "Dt", "N", "P", "T", "s", "V", "H", "L", "K", "M", "I", "O", "b", "E", "C", "k", "g", "Hk", "Dk", "Hv", "Dv", "X"}

// termVars is the value of every variable for one piece.
type termVars [numVars]int64

// setConfig fills the variables that come from r.
func (v *termVars) setConfig(r *Resolved) {
	g := int64(0)
	if r.Grad {
		g = 1
	}
	copy(v[numPieceVars:], []int64{r.N, r.P, r.T, r.S, r.V, r.H, r.L, r.K, r.MoEWidth,
		r.I, r.O, r.B, r.EP, r.C, r.Outputs.TopK, g, r.Hk, r.Dk, r.Hv, r.Dv, r.X})
}

// termLang is the language of a term's bytes over the variables above,
// the first numPieceVars of which depend on the piece.
var termLang = termexpr.NewLang(varNames[:], numPieceVars).WithHints(map[string]string{
	"rows":                   "n (the piece's rows; N is the request's)",
	"projected_rows":         "p (the piece's; P is the request's)",
	"target_rows":            "t (the piece's; T is the request's)",
	"sequence_rows":          "s",
	"vocab_size":             "V",
	"hidden_size":            "H",
	"num_hidden_layers":      "L",
	"num_experts_per_tok":    "K",
	"moe_intermediate_size":  "M",
	"input_width":            "I",
	"output_width":           "O",
	"dtype_bytes":            "b",
	"expert_parallel":        "E",
	"chunk_rows":             "C",
	"linear_num_key_heads":   "Hk",
	"linear_key_head_dim":    "Dk",
	"linear_num_value_heads": "Hv",
	"linear_value_head_dim":  "Dv",
	"num_experts":            "X",
})

// maxTermStack is the scratch a term's program needs while it runs.
const maxTermStack = termexpr.MaxStack

// allowedSyntax ends every message about the form of a term's bytes.
const allowedSyntax = termexpr.Allowed
