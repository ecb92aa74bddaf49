package estimator

import (
	"strconv"
	"strings"
)

// loraTally adds up LoRA adapters as ART's Megatron backend applies them
// (docs/model.md §14.3): an adapted linear i -> o gets A_T [i, r] and B_T
// [r, o]; an adapted routed-expert linear one pair per layer for the
// GPU's xLocal experts, [xLocal, i, r] and [xLocal, r, o]. Each tensor is
// rounded on its own, once per element size (weights bl, master copy bmw,
// one optimizer moment bm).
type loraTally struct {
	c                      *calc
	round, rank            int64
	xLocal, align          int64
	bl, bmw, bm            int64
	dense, expert          int64 // parameters
	wBytes, mBytes, oBytes int64 // rounded tensors: weights, master copy, one moment
}

// linear adds n layers' adapters of one linear i -> o; expert: of the
// GPU's routed experts.
func (l *loraTally) linear(i, o, n int64, expert bool) {
	if n == 0 {
		return
	}
	c, what := l.c, tallyWhat
	a, b := c.mul(i, l.rank, what), c.mul(l.rank, o, what)
	if expert {
		a, b = c.mul(a, l.xLocal, what), c.mul(b, l.xLocal, what)
	}
	p := c.mul(c.add(a, b, what), n, what)
	if expert {
		l.expert = c.add(l.expert, p, what)
	} else {
		l.dense = c.add(l.dense, p, what)
	}
	sum := func(eb int64) int64 {
		ra := c.roundUp(c.mul(a, eb, what), l.round, what)
		rb := c.roundUp(c.mul(b, eb, what), l.round, what)
		return c.mul(c.add(ra, rb, what), n, what)
	}
	l.wBytes = c.add(l.wBytes, sum(l.bl), what)
	l.mBytes = c.add(l.mBytes, sum(l.bmw), what)
	l.oBytes = c.add(l.oBytes, sum(l.bm), what)
}

// loraTargets are the linears a family's adapters may name, in the order
// of its default list (§14.3), which is the whole list.
func (m *archModel) loraTargets() []string {
	switch m.fam {
	case famLlama:
		return []string{"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"}
	case famMixtral, famGptOss:
		return []string{"q_proj", "k_proj", "v_proj", "o_proj", "experts"}
	case famQwen3Next:
		return []string{"q_proj", "k_proj", "v_proj", "o_proj", "in_proj_qkv", "in_proj_z", "out_proj", "experts", "gate_proj", "up_proj", "down_proj"}
	case famDeepSeekV3:
		q := []string{"q_a_proj", "q_b_proj"}
		if m.qr == 0 {
			q = []string{"q_proj"}
		}
		return append(q, "kv_a_proj_with_mqa", "kv_b_proj", "o_proj", "gate_proj", "up_proj", "down_proj", "experts")
	}
	return []string{"q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj", "experts"}
}

// checkTargets validates resident.lora_targets against the family's
// linears; nil or empty takes the family's default list.
func (m *archModel) checkTargets(targets []string) ([]string, ErrorList) {
	allowed := m.loraTargets()
	if len(targets) == 0 {
		return allowed, nil
	}
	var errs ErrorList
	seen := map[string]bool{}
	for i, name := range targets {
		field := "resident.lora_targets[" + strconv.Itoa(i) + "]"
		switch {
		case !containsName(allowed, name):
			errs = append(errs, &Error{Field: field, Message: strconv.Quote(name) + " is not a linear of " + m.arch + "; allowed: " + strings.Join(allowed, ", ")})
		case seen[name]:
			errs = append(errs, &Error{Field: field, Message: strconv.Quote(name) + " is named twice; the targets must be distinct"})
		}
		seen[name] = true
	}
	if len(targets) > 16 {
		errs = append(errs, &Error{Field: "resident.lora_targets", Message: "names " + Group(int64(len(targets))) + " linears; at most 16"})
	}
	return targets, errs
}

func containsName(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// adapt adds the adapters of one target (§14.3's table). gate_proj,
// up_proj and down_proj adapt the dense MLP layers and the shared expert;
// the routed experts are "experts".
func (m *archModel) adapt(l *loraTally, target string) {
	H := m.H
	attn := m.nAttn // every layer but Qwen3-Next's GDN ones
	c := l.c
	mul := func(a, b int64) int64 { return c.mul(a, b, tallyWhat) }
	switch target {
	case "q_proj":
		if m.fam == famDeepSeekV3 {
			l.linear(H, mul(m.nh, m.dn+m.dr), attn, false)
			return
		}
		g := int64(1)
		if m.fam == famQwen3Next {
			g = 2
		}
		l.linear(H, mul(mul(m.nh, m.d), g), attn, false)
	case "k_proj", "v_proj":
		l.linear(H, mul(m.nkv, m.d), attn, false)
	case "o_proj":
		if m.fam == famDeepSeekV3 {
			l.linear(mul(m.nh, m.dv), H, attn, false)
			return
		}
		l.linear(mul(m.nh, m.d), H, attn, false)
	case "q_a_proj":
		l.linear(H, m.qr, attn, false)
	case "q_b_proj":
		l.linear(m.qr, mul(m.nh, m.dn+m.dr), attn, false)
	case "kv_a_proj_with_mqa":
		l.linear(H, m.kvr+m.dr, attn, false)
	case "kv_b_proj":
		l.linear(m.kvr, mul(m.nh, m.dn+m.dv), attn, false)
	case "in_proj_qkv", "in_proj_z", "out_proj":
		gdn := m.L - m.nAttn
		k, v := mul(m.Hk, m.Dk), mul(m.Hv, m.Dv)
		switch target {
		case "in_proj_qkv":
			l.linear(H, c.add(mul(2, k), v, tallyWhat), gdn, false)
		case "in_proj_z":
			l.linear(H, v, gdn, false)
		default:
			l.linear(v, H, gdn, false)
		}
	case "gate_proj", "up_proj", "down_proj":
		dense := m.L - m.nMoE
		shared := int64(0)
		if m.S > 0 {
			shared = m.nMoE
		}
		if target == "down_proj" {
			l.linear(m.F, H, dense, false)
			l.linear(m.S, H, shared, false)
		} else {
			l.linear(H, m.F, dense, false)
			l.linear(H, m.S, shared, false)
		}
	case "experts":
		switch m.fam {
		case famGptOss:
			h, f := m.alignedHF(l.align)
			l.linear(h, 2*f, m.nMoE, true)
			l.linear(f, h, m.nMoE, true)
		default:
			w := m.M
			if m.fam == famMixtral {
				w = m.F
			}
			l.linear(H, w, mul(2, m.nMoE), true) // gate, up
			l.linear(w, H, m.nMoE, true)         // down
		}
	}
}
