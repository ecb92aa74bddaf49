package page

import (
	"headroom/estimator/urlquery"
	"testing"
)

// TestSettledOpensItself: after any edit the state is the one its address
// opens, so a copied link shows what the page shows (TestE2EMonkey's
// finding): decoding the address gives back the same address, config,
// range, GPU and messages.
func TestSettledOpensItself(t *testing.T) {
	t.Parallel()
	list, err := Presets()
	if err != nil {
		t.Fatal(err)
	}
	type step struct{ kind, key, text string }
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"refused field on a preset", []step{{"menu", KeyPreset, "mixtral-8x7b"}, {"text", "capacity_bytes", "0"}, {"text", "linear_num_key_heads", "12abc"}}},
		{"in use over capacity, dtype out of its values", []step{{"text", KeyInUseGiB, "304.84"}, {"text", "dtype_bytes", " 4096 "}, {"text", "input_width", "105,965"}}},
		{"projected above rows", []step{{"text", "projected_rows", "5000000"}, {"text", "rows", "10"}}},
		{"bad range on an axis", []step{{"menu", KeyAxis, "vocab_size"}, {"text", KeyFrom, "0"}, {"text", KeyTo, "abc"}}},
		{"grouped digits kept as typed", []step{{"text", "rows", "64,902"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := New()
			for _, st := range tc.steps {
				switch st.kind {
				case "menu":
					s.SetMenu(st.key, st.text, list)
				case "text":
					s.SetText(st.key, st.text)
				}
				s.Validate()
				s = s.Settled(list)
				q := s.Query(list).Encode()
				back := Decode(s.Query(list), list)
				if got := back.Query(list).Encode(); got != q {
					t.Errorf("after %v: the address ?%s opens a state whose address is ?%s", st, q, got)
				}
				if urlquery.Encode(back.Cfg).Encode() != urlquery.Encode(s.Cfg).Encode() ||
					back.From != s.From || back.To != s.To || back.GPU != s.GPU || back.Valid != s.Valid {
					t.Errorf("after %v: the address ?%s opens another state", st, q)
				}
				if len(back.Errs) != len(s.Errs) {
					t.Errorf("after %v: the page marks %v, its address %v", st, s.Errs, back.Errs)
				}
			}
			if tc.name == "grouped digits kept as typed" && s.Text("rows") != "64,902" {
				t.Errorf("rows shows %q, want the typed 64,902", s.Text("rows"))
			}
		})
	}
}
