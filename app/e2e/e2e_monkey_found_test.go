//go:build !wasm

package e2e

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
		// A preset picked after Forward, when the state then settled back
		// on the preset it had (the address it opens): nothing changed in
		// the render, so go-app left the select on the user's pick
		// (seed 1796093224599613370); the page now puts every menu back on
		// the state's choice after each render (syncMenus).
		{"a menu pick the state does not keep", []action{
			{"slide", "linear_key_head_dim", "", 63},
			{"keys", "projected_rows", "End", 5},
			{"type", "input-reserve_permille", "1e5", 1},
			{"slide", "projected_rows", "", 672},
			{"forward", "", "", 0},
			{"type", "input-input_width", "-Infinity", 1},
			{"keys", "retained_per_row_bytes", "ArrowLeft", 1},
			{"import", "", "{\n  \"architectures\": [\"GptOssForCausalLM\"],\n  \"attention_bias\": true,\n  \"attention_dropout\": 0.0,\n  \"eos_token_id\": 200002,\n  \"experts_per_token\": 4,\n  \"head_dim\": 64,\n  \"hidden_act\": \"silu\",\n  \"hidden_size\": 2880,\n  \"initial_context_length\": 4096,\n  \"initializer_range\": 0.02,\n  \"intermediate_size\": 2880,\n  \"layer_types\": [\"sliding_attention\", \"full_attention\"],\n  \"max_position_embeddings\": 131072,\n  \"model_type\": \"gpt_oss\",\n  \"num_attention_heads\": 64,\n  \"num_experts_per_tok\": 4,\n  \"num_hidden_layers\": 36,\n  \"num_key_value_heads\": 8,\n  \"num_local_experts\": 128,\n  \"output_router_logits\": false,\n  \"pad_token_id\": 199999,\n  \"rms_norm_eps\": 1e-05,\n  \"rope_theta\": 150000,\n  \"router_aux_loss_coef\": 0.9,\n  \"sliding_window\": 128,\n  \"swiglu_limit\": 7.0,\n  \"tie_word_embeddings\": false,\n  \"transformers_version\": \"4.55.0.dev0\",\n  \"use_cache\": true,\n  \"vocab_size\": 201088\n}\n", 0},
			{"type", "axis-from", "１２３", 1},
			{"slide", "linear_num_key_heads", "", 611},
			{"switch", "grad", "", 0},
			{"type", "input-dtype_bytes", "3", 0},
			{"type", "input-input_width", "0.5k", 1},
			{"switch", "fc2_known_storage", "", 0},
			{"address", "", "from=1099511627776&gpu=rtx4090&in_use_gib=5.96&num_experts_per_tok=1025", 0},
			{"keys", "target_rows", "ArrowRight", 5},
			{"keys", "hidden_size", "ArrowDown", 5},
			{"forward", "", "", 0},
			{"menu", "preset", "", 1},
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
