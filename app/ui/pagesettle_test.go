package ui

import (
	"testing"

	"headroom/estimator"
)

// TestSettledOpensItself: after any edit the state is the one its address
// opens, so a copied link shows what the page shows (TestE2EMonkey's
// finding): decoding the address gives back the same address, config,
// range, GPU and messages.
func TestSettledOpensItself(t *testing.T) {
	list, err := presets()
	if err != nil {
		t.Fatal(err)
	}
	type step struct{ kind, key, text string }
	for _, tc := range []struct {
		name  string
		steps []step
	}{
		{"refused field on a preset", []step{{"menu", keyPreset, "mixtral-8x7b"}, {"text", "capacity_bytes", "0"}, {"text", "linear_num_key_heads", "12abc"}}},
		{"in use over capacity, dtype out of its values", []step{{"text", KeyInUseGiB, "304.84"}, {"text", "dtype_bytes", " 4096 "}, {"text", "input_width", "105,965"}}},
		{"projected above rows", []step{{"text", "projected_rows", "5000000"}, {"text", "rows", "10"}}},
		{"bad range on an axis", []step{{"menu", keyAxis, "vocab_size"}, {"text", keyFrom, "0"}, {"text", keyTo, "abc"}}},
		{"grouped digits kept as typed", []step{{"text", "rows", "64,902"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newPageState()
			for _, st := range tc.steps {
				switch st.kind {
				case "menu":
					s.setMenu(st.key, st.text, list)
				case "text":
					s.setText(st.key, st.text)
				}
				s.validate()
				s = s.settled(list)
				q := s.query(list).Encode()
				back := decodePage(s.query(list), list)
				if got := back.query(list).Encode(); got != q {
					t.Errorf("after %v: the address ?%s opens a state whose address is ?%s", st, q, got)
				}
				if estimator.EncodeQuery(back.cfg).Encode() != estimator.EncodeQuery(s.cfg).Encode() ||
					back.from != s.from || back.to != s.to || back.gpu != s.gpu || back.valid != s.valid {
					t.Errorf("after %v: the address ?%s opens another state", st, q)
				}
				if len(back.errs) != len(s.errs) {
					t.Errorf("after %v: the page marks %v, its address %v", st, s.errs, back.errs)
				}
			}
			if tc.name == "grouped digits kept as typed" && s.text("rows") != "64,902" {
				t.Errorf("rows shows %q, want the typed 64,902", s.text("rows"))
			}
		})
	}
}
