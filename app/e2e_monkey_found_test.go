//go:build !wasm

package main

import "testing"

// TestE2EMonkeyFound replays, as regular tests, the sequences TestE2EMonkey
// found failing (each fixed in the page since): after every action the
// monkey's checks, and at the end the address opened in a fresh tab.
func TestE2EMonkeyFound(t *testing.T) {
	for _, tc := range []struct {
		name string
		acts []action
	}{
		// The page kept the address of a link whose state has the empty
		// query (it compared with an initial "" it had never written),
		// and dropped a bad menu value from the address: a fresh tab
		// lost the message.
		{"bad axis in a hand-edited address", []action{
			{"address", "", "axis=allocator_round_bytes", 0},
		}},
		{"bad preset and gpu in a hand-edited address", []action{
			{"address", "", "preset=bogus&gpu=h300", 0},
			{"reload", "", "", 0},
		}},
		// In use over capacity, then dtype_bytes out of its values: the
		// page marked only dtype_bytes (Estimate stops at the first
		// error), dropped the typed GiB from the address and showed its
		// last valid render, while the address opens with both fields at
		// their defaults and draws that.
		{"two bad fields, then a good edit", []action{
			{"type", "input-in_use_gib", "304.84", 0},
			{"type", "input-dtype_bytes", " 4096 ", 0},
			{"forward", "", "", 0},
			{"type", "input-input_width", "105,965", 0},
		}},
		// capacity_bytes 0 and linear_num_key_heads refused on a
		// Mixtral model: the page kept the refused field's last value,
		// so its preset menu said Mixtral, its GPU custom and its range
		// the one of capacity 0, while its address opened with both at
		// their defaults: no preset, an H200, another range.
		{"refused fields with a preset and a GPU", []action{
			{"address", "", "preset=mixtral-8x7b&axis=output_width", 0},
			{"type", "input-capacity_bytes", "0", 0},
			{"type", "input-linear_num_key_heads", "12abc", 0},
		}},
		// Back after edits that pushed history entries (main's undo): the
		// page restores the entry's state in the same document, which the
		// monkey took for a new one (seed 1796091669480620347).
		{"back over the page's own history entries", []action{
			{"type", "input-projected_rows", "19159173", 1},
			{"switch", "hidden_states", "", 0},
			{"slide", "hidden_size", "", 431},
			{"edit-address", "preset", "", 1},
			{"back", "", "", 0},
			{"back", "", "", 0},
			{"forward", "", "", 0},
			{"fit", "", "", 0},
			{"type", "axis-to", "80GiB", 1},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := newMonkey(t)
			defer m.close()
			if _, err := m.run(tc.acts, 0); err != nil {
				t.Fatal(err)
			}
			if err := m.checkFresh(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
