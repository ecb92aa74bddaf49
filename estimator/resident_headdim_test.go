package estimator

import (
	"strings"
	"testing"
)

// TestResidentSweepDerivedHeadDim: head_dim absent is floor(H / n_h)
// (§14.1), a default that follows hidden_size as output_width's does: a
// sweep along hidden_size prices at each point the model a config with
// that hidden_size describes (§14.4: resident memory is recomputed at each
// point), so Llama-3.1-8B without head_dim at H = 8192 has head_dim 256,
// not the 128 of the config's own 4096.
func TestResidentSweepDerivedHeadDim(t *testing.T) {
	src := residentConfig(llama31_8B, 1, `{"lora_rank": 16}`)
	c, err := DecodeConfig([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSweeper(c, "hidden_size")
	if err != nil {
		t.Fatal(err)
	}
	wide, err := DecodeConfig([]byte(strings.Replace(src, `"hidden_size": 4096`, `"hidden_size": 8192`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Estimate(wide)
	if err != nil {
		t.Fatal(err)
	}
	if p := s.Point(8192); p.Error != "" || p.AvailableBytes != int64(res.AvailableBytes) {
		t.Errorf("sweep at 8192: %q, available %d; the config at 8192: available %d (resident %d)",
			p.Error, p.AvailableBytes, res.AvailableBytes, res.Resident.ResidentBytes)
	}
}
