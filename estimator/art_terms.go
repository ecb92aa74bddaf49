package estimator

import (
	"headroom/estimator/internal/termexpr"
	"strconv"
	"strings"
)

// Terms under the art profile (docs/model.md §13.13): a term names the
// part of ART's price it joins, and is evaluated over the quantities ART's
// formulas use, unrounded as every art byte is. The places and the way
// each combines are artPrice's; this file compiles and evaluates them.

// The places a term can join under art.
const (
	artPlaceOutputs          int8 = iota // Out, outside the maximum: children add up
	artPlaceActivations                  // A, a forward alternative
	artPlaceMoE                          // M, a forward alternative
	artPlaceDense                        // Z, a forward alternative
	artPlaceStage                        // an alternative of its own in the maximum
	artPlaceRetained                     // B, the checkpoint's retained boundaries
	artPlaceRetainedFloor                // a floor in the maximum with B
	artPlaceWorkspace                    // W, in max(W, HC, G)
	artPlaceHead                         // HC, in max(W, HC, G)
	artPlaceHeadBound                    // HL, the rejection bound's head
	artPlaceGDN                          // G, in max(W, HC, G)
	artPlaceInputGradient                // IG, the backward's input gradient
	artPlaceAdapterGradients             // AD, the adapter gradients' walk
	artPlaceColdTransients               // k0
	artPlaceBackward                     // a backward part of its own beside IG, AD and k0
	numArtPlaces
)

// ArtTermPlaces are the places a term can have under the art profile, in
// the order of artPlace.
var ArtTermPlaces = []string{"outputs", "activations", "moe", "dense_no_grad", "stage", "retained", "retained_floor",
	"workspace", "head", "head_bound", "gdn_floor", "input_gradient", "adapter_gradients", "cold_transients", "backward"}

// isArtPlace reports whether place is one of ArtTermPlaces.
func isArtPlace(place string) bool {
	for _, p := range ArtTermPlaces {
		if p == place {
			return true
		}
	}
	return false
}

// The variables of a term under art: §8's, with the meaning ART's code
// gives them, then the quantities ART's formulas use. The first
// numArtPieceVars depend on the piece.
const (
	avN       = iota // n: the piece's rows
	avP              // p: its projected rows, the sum of c_j
	avT              // t: its labelled rows, the sum of t_j
	avR              // r: its routed rows n x R where ART prices the MoE, else 0
	avD              // D: the head chunk D(h) = h x Vp x 2
	avDt             // Dt: the rejection bound's target chunk
	avQ              // q: the piece's sequences
	avH              // h: the head's capacity rows min(C, p), 0 without a stock head
	avHb             // hb: the rejection bound's head rows
	avDb             // Db: D(hb)
	avB              // B: the boundaries g x n x L x H x 2 (0 without the checkpoint floor)
	avNg             // ng: the gradient rows, n with grad, else 0
	avReqN           // N
	avReqP           // P
	avReqT           // T
	avS              // s
	avV              // V
	avHid            // H
	avL              // L
	avK              // K
	avM              // M
	avI              // I
	avO              // O
	avDtype          // b
	avE              // E
	avC              // C
	avTopK           // k
	avG              // g
	avHk             // Hk
	avDk             // Dk
	avHv             // Hv
	avDv             // Dv
	avX              // X: the routed experts
	avM2             // m: the request's sequences
	avVp             // Vp: the padded vocabulary
	avGamma          // gamma: pending adapter gradient bytes per layer
	avOmicron        // omicron: pending adapter gradient bytes outside the decoder
	avPct            // pct: safety_percent
	avCf             // cf: 1 where ART's checkpoint floor qualifies, else 0
	avGf             // gf: 1 where ART prices the GDN pending floor, else 0
	numArtVars
	numArtPieceVars = avReqN
)

var artVarNames = [numArtVars]string{"n", "p", "t", "r", "D", "Dt", "q", "h", "hb", "Db", "B", "ng",
	"N", "P", "T", "s", "V", "H", "L", "K", "M", "I", "O", "b", "E", "C", "k", "g", "Hk", "Dk", "Hv", "Dv", "X",
	"m", "Vp", "gamma", "omicron", "pct", "cf", "gf"}

// artRequestVars are the variables of the whole request, whose value a
// sweep along rows moves without moving a piece.
const artRequestVars = 1<<avReqN | 1<<avReqP | 1<<avReqT | 1<<avM2

// ArtTermVariables lists the variables a term's bytes may use under art.
func ArtTermVariables() []string { return append([]string(nil), artVarNames[:]...) }

var artTermLang = termexpr.NewLang(artVarNames[:], numArtPieceVars)

// compileArtTerm checks one term for the art profile; msg is its first
// problem. A term none of scope's revisions holds is kept unchecked.
func compileArtTerm(t Term, scope uint8) (ct compiledTerm, msg string) {
	ct, msg, done := compileTermHead(t, scope, artPlaceOutputs)
	if done {
		return ct, msg
	}
	ct.place = -1
	for i, p := range ArtTermPlaces {
		if p == t.Place {
			ct.place = int8(i)
		}
	}
	if ct.place < 0 {
		return ct, "place " + strconv.Quote(clip(t.Place)) + ": profile art has no such part of its price; places under art: " + strings.Join(ArtTermPlaces, ", ")
	}
	if ct.place == artPlaceStage {
		for _, s := range append(artStageNames[:len(artStageNames):len(artStageNames)], "outputs", "retained") {
			if t.Name == s {
				return ct, "a term with place stage cannot be named " + strconv.Quote(t.Name) + ", the name of a stage of ART's price; choose another name"
			}
		}
	}
	switch t.Mode {
	case "", "add":
	case "replace":
		if ct.place == artPlaceStage {
			return ct, "place stage: a stage of its own has no bytes of ART's to replace; use mode add"
		}
		ct.replace = true
	default:
		return ct, modeError(t.Mode)
	}
	prog, info, uses, msg := artTermLang.Compile(t.Bytes)
	if msg != "" {
		return ct, "place " + t.Place + ": " + msg
	}
	ct.prog, ct.safe, ct.subadd, ct.uses = prog, info.Safe, info.Subadd, uses
	return ct, ""
}

// artTermParts are the terms a revision holds, evaluated for one piece:
// per place the sum of its adding terms and of its replacing ones, and
// whether one replaces; own is the largest stage of its own.
type artTermParts struct {
	add, rep [numArtPlaces]int64
	replaced uint32 // bit p: some term replaces place p
	own      int64
	value    [MaxTerms]int64 // each term's bytes, for the breakdown
}

// part is the bytes of place p given ART's own bytes there.
func (tp *artTermParts) part(c *calc, p int8, own int64) int64 {
	if tp.replaced&(1<<p) != 0 {
		own = tp.rep[p]
	}
	return c.add(own, tp.add[p], whatArtTerms)
}

// whatArtTerms names the sum of a part and its terms in an overflow.
const whatArtTerms = "terms (art): a part of ART's price with its terms"

// artHeld is the terms revision v holds under art: nil when none.
func (r *Resolved) artHeld(v variant) []termRef {
	if r.terms == nil || !r.terms.art {
		return nil
	}
	held, _ := r.terms.holding(v.rev)
	return held
}

// artTermVars fills the variables of piece p (n rows, head rows h, hb,
// the bound's target chunk dt) for koefficients k.
func (r *Resolved) artTermVars(k *artKoef, p artPiece, ac *artCost, hr artHeadRowsOf, vars *[numArtVars]int64) {
	n := ac.n
	g := int64(0)
	if k.g {
		g = 1
	}
	cf, gf := int64(0), int64(0)
	if r.art.ckptFloor {
		cf = 1
	}
	if k.gdn {
		gf = 1
	}
	routed := int64(0)
	if k.mf > 0 && r.K > 0 {
		routed = r.K
		if r.EP > 1 {
			routed = (3*r.K + 1) / 2
		}
	}
	*vars = [numArtVars]int64{
		avN: n, avP: hr.p, avT: hr.t, avR: n * routed, avD: hr.h * k.vp * 2, avDt: hr.dt,
		avQ: p.q, avH: hr.h, avHb: hr.hb, avDb: hr.hb * k.vp * 2, avB: ac.bOwn, avNg: n * g,
		avReqN: r.N, avReqP: r.P, avReqT: r.T, avS: r.S, avV: r.V, avHid: r.H, avL: r.L, avK: r.K,
		avM: r.MoEWidth, avI: r.I, avO: r.O, avDtype: r.B, avE: r.EP, avC: r.C, avTopK: r.Outputs.TopK,
		avG: g, avHk: r.Hk, avDk: r.Dk, avHv: r.Hv, avDv: r.Dv, avX: r.X, avM2: r.sequences(), avVp: k.vp,
		avGamma: r.art.gamma, avOmicron: r.art.omicron, avPct: r.SafetyPercent, avCf: cf, avGf: gf,
	}
}

// artHeadRowsOf are a piece's head quantities for the variables.
type artHeadRowsOf struct {
	p, t, h, hb, dt int64
}

// artHeadVars computes them as artHeadRows and artHeadBound read them.
func (r *Resolved) artHeadVars(k *artKoef, p artPiece) artHeadRowsOf {
	cFull, cLast, tFull, tLast := r.artHeadCounts(k, p)
	var hr artHeadRowsOf
	hr.p, hr.t = cLast+(p.q-1)*cFull, tLast+(p.q-1)*tFull
	h, hlb, ht := r.artHeadRows(k, p)
	if h == 0 || !r.art.stockHead {
		return hr
	}
	hr.h, hr.hb = h, hlb
	hr.dt = hlb * k.vp * 2
	if k.lam == 1 || k.k > 0 {
		hr.dt = ht * k.vp * 2
	}
	return hr
}

// artEvalTerms evaluates the terms held for piece p into tp; lower: as
// the rejection bound prices the piece (head_bound in place of head, no
// GDN floor). A term that fails sets c's error, naming the term and its
// place.
func (r *Resolved) artEvalTerms(c *calc, k *artKoef, p artPiece, ac *artCost, held []termRef, lower bool, tp *artTermParts) {
	*tp = artTermParts{}
	var vars [numArtVars]int64
	r.artTermVars(k, p, ac, r.artHeadVars(k, p), &vars)
	var st [maxTermStack]int64
	for _, h := range held {
		ct := &r.terms.terms[h.i]
		pl := ct.place
		if lower && (pl == artPlaceHead || pl == artPlaceGDN) || !lower && pl == artPlaceHeadBound {
			continue
		}
		v, ok := termexpr.RunFast(ct.prog, vars[:], &st)
		if !ok {
			if c.err == nil {
				_, f := termexpr.Run(ct.prog, vars[:], new([maxTermStack]int64))
				c.err = &Error{Field: ct.field, Message: "place " + ArtTermPlaces[pl] + ": " + f.Message(ac.n)}
			}
			return
		}
		tp.value[h.i] = v
		switch {
		case pl == artPlaceStage:
			tp.own = max(tp.own, v)
		case ct.replace:
			tp.rep[pl] = c.add(tp.rep[pl], v, whatArtTerms)
			tp.replaced |= 1 << pl
		default:
			tp.add[pl] = c.add(tp.add[pl], v, whatArtTerms)
		}
	}
}

// artPieceVars are the art variables of a piece of n rows of r (ceil(n /
// s) sequences, the last the shorter), as the candidate prices it.
func (r *Resolved) artPieceVars(n int64) ([numArtVars]int64, error) {
	var vars [numArtVars]int64
	var c calc
	k := r.artKoef(&c, r.candidateVariant())
	q := ceilDiv(n, r.S)
	p := artPiece{q: q, s: r.S, last: n - (q-1)*r.S}
	var ac artCost
	r.artPrice(&c, &k, p, false, nil, &ac)
	if c.err != nil {
		return vars, c.err
	}
	r.artTermVars(&k, p, &ac, r.artHeadVars(&k, p), &vars)
	return vars, nil
}
