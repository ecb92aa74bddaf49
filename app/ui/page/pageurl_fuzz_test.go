package page

import (
	"fmt"
	"net/url"
	"reflect"
	"strconv"
	"testing"

	"headroom/estimator"
)

// FuzzDecodePage feeds the page's URL decoder any query string, as a
// hand-edited link would: it never panics, and one decode of any link
// gives a fixed point: the address the state writes, read back, writes
// itself again, so a shared link restores exactly what its sender saw,
// bad values included. (The first decode may normalise a hand-edited
// link: rows=64%2C902 becomes rows=64902, and what the page's address
// cannot carry, such as a key "b." that names no field, is gone from the
// next state. The last case that took two decodes, in_use_bytes=0.5, a
// byte count the GiB field then read as GiB, now keeps its unit:
// testdata/fuzz has it.) And the state an edit settles on (Settled) is
// the one its own address opens, to what the explorer draws from it
// (showsAlike): the explorer takes it without decoding its address again
// (State.OpenedBy).
func FuzzDecodePage(f *testing.F) {
	f.Add("rows=0&vocab_size=64000")
	f.Add("preset=llama-3.1-8b&gpu=h100&axis=vocab_size&from=1&to=300000")
	f.Add("preset=nope&gpu=tpu&axis=bogus&from=-1&to=1e30&in_use_gib=NaN")
	f.Add("in_use_bytes=999999999999999999&capacity_bytes=1&projected_rows=7&target_rows=9")
	f.Add("rows=64%2C902&topk=%D9%A6&grad=maybe&output_width=auto")
	f.Add("obs=64902~94780217856~cold&obs=0~5&obs=33706~88242250580&observed=1+2%0Ax+y&in_use_bytes=96636764160")
	f.Add("observed=5+100%0A6+2PiB&obs=7~9")
	f.Add("term=a~head~candidate~2+*+D&term=b~stage~both~n+-+100_000&term=a~fc2~~1&term=x~neck~2+*+Q&term=nonsense")
	f.Add("rows=10&term=r~retained~baseline~ceil(n,+0)&term=s~stage~~max(n,+1)+*+9223372036854775807")
	f.Add("profile=art&checkpoint_floor=false&padded_vocab_multiple=0&fused_fc1=maybe&b.profile=seeds&dtype_bytes=4")
	f.Add("profile=torch&b.profile=art&term=a~head~candidate~2+*+D&profile_memory=%7B%22bytes_per_token%22%3A1%7D")
	f.Add("profile=ART&term=a~head~candidate~2&expert_parallel=8&rows=300000&gdn_out_proj_lora_rank=16&b.profile=")
	f.Add("resident=off&expert_parallel=1&lora_rank=7")
	f.Add("preset=deepseek-v3&lora_rank=x&lora_targets=nope,experts&framework_reserve_bytes=-1")
	f.Add(`arch={"architectures":["MixtralForCausalLM"]}&resident={"include_mtp":1}&expert_parallel=3`)
	f.Add("arch=llama-3.1-8b&resident=on&in_use_bytes=1073741824")
	// Every field's key, and its baseline's, at both ends of its range and
	// one past, and every term variable in every place: a plain go test
	// runs them.
	for _, fd := range estimator.Fields() {
		for _, v := range []int64{fd.Min, fd.Max, fd.Max + 1} {
			n := strconv.FormatInt(v, 10)
			f.Add(fd.Key + "=" + n + "&b." + fd.Key + "=" + n)
		}
	}
	for _, v := range estimator.TermVariables() {
		for _, p := range estimator.TermPlaces {
			f.Add("term=t~" + p + "~both~" + v + "+*+2")
		}
	}
	list, err := Presets()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		once := Decode(q, list)
		first := once.Query(list).Encode()
		s := Decode(once.Query(list), list)
		if second := s.Query(list).Encode(); second != first {
			t.Fatalf("from %q the page writes %q, which reads back as %q", raw, first, second)
		}
		settled := once.Settled(list)
		addr := settled.Query(list).Encode()
		if !settled.OpenedBy(addr) {
			t.Fatalf("from %q: the settled state does not know its address %q", raw, addr)
		}
		if why := showsAlike(settled, Decode(settled.Query(list), list)); why != "" {
			t.Fatalf("from %q: the settled state is not the one its address %q opens: %s", raw, addr, why)
		}
		if s.Valid {
			if _, err := s.Cfg.Resolve(); err != nil {
				t.Fatalf("Decode(%q) says valid, but: %v", raw, err)
			}
		}
	})
}

// showsAlike says how two states differ in what the explorer draws from
// the state its address opens (renderNow): "" when they do not.
func showsAlike(a, b State) string {
	switch {
	case !a.Cfg.Equal(b.Cfg):
		return "the config differs"
	case a.Axis != b.Axis || a.From != b.From || a.To != b.To:
		return fmt.Sprintf("the axis differs: %s %d..%d, %s %d..%d", a.Axis, a.From, a.To, b.Axis, b.From, b.To)
	case a.Valid != b.Valid || a.CfgOK != b.CfgOK:
		return fmt.Sprintf("valid %v (config %v), then %v (%v)", a.Valid, a.CfgOK, b.Valid, b.CfgOK)
	case (a.Errs[KeyFrom] == "") != (b.Errs[KeyFrom] == "") || (a.Errs[KeyTo] == "") != (b.Errs[KeyTo] == ""):
		return fmt.Sprintf("the range's errors differ: %q %q, %q %q", a.Errs[KeyFrom], a.Errs[KeyTo], b.Errs[KeyFrom], b.Errs[KeyTo])
	case a.CfgOK && !reflect.DeepEqual(a.Result, b.Result):
		return "the estimate differs"
	}
	return ""
}
