package browser

import (
	"testing"
)

func TestFileName(t *testing.T) {
	for _, tt := range []struct{ preset, axis, ext, want string }{
		{"Qwen3-Next-80B-A3B", "rows", "csv", "qwen3-next-80b-a3b_rows.csv"},
		{"Llama-3.1-8B", "vocab_size", "svg", "llama-3.1-8b_vocab_size.svg"},
		{"", "rows", "json", "headroom_rows.json"},
		{"../../etc/passwd", "rows", "png", "etc-passwd_rows.png"},
	} {
		t.Run(tt.want, func(t *testing.T) {
			if got := FileName(tt.preset, tt.axis, tt.ext); got != tt.want {
				t.Errorf("FileName(%q) = %q, want %q", tt.preset, got, tt.want)
			}
		})
	}
}
