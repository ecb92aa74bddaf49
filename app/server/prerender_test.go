//go:build !wasm

package server

import "testing"

func TestInertText(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"digits", "64,902", "64,902"},
		{"quote", `1"2`, "1\uFFFD2"},
		{"markup", `<a href='x'>&amp;</a>`, "\uFFFDa href=\uFFFDx\uFFFD\uFFFD\uFFFDamp;\uFFFD/a\uFFFD"},
		{"backslash and backtick", "\\`", "\uFFFD\uFFFD"},
		{"controls", "a\nb\x00c\u2028", "a\uFFFDb\uFFFDc\uFFFD"},
		{"invalid utf-8", "\xff1", "\uFFFD1"},
		{"unicode kept", "日本語 😀 ＂", "日本語 😀 ＂"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := inertText(tt.in); got != tt.want {
				t.Errorf("inertText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
