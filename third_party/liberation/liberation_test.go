package liberation_test

import (
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"codeberg.org/go-fonts/liberation/liberationmonobold"
	"codeberg.org/go-fonts/liberation/liberationmonobolditalic"
	"codeberg.org/go-fonts/liberation/liberationmonoitalic"
	"codeberg.org/go-fonts/liberation/liberationmonoregular"
	"codeberg.org/go-fonts/liberation/liberationsansbold"
	"codeberg.org/go-fonts/liberation/liberationsansbolditalic"
	"codeberg.org/go-fonts/liberation/liberationsansitalic"
	"codeberg.org/go-fonts/liberation/liberationsansregular"
	"codeberg.org/go-fonts/liberation/liberationserifbold"
	"codeberg.org/go-fonts/liberation/liberationserifbolditalic"
	"codeberg.org/go-fonts/liberation/liberationserifitalic"
	"codeberg.org/go-fonts/liberation/liberationserifregular"
)

// upstreamSansRegular is the SHA-256 of LiberationSans-Regular.ttf in
// codeberg.org/go-fonts/liberation v0.5.0. The face must stay unmodified:
// the SIL OFL reserves the name "Liberation" for the original, and the
// chart's SVG and PNG are measured with its metrics.
const upstreamSansRegular = "597589a852868f782c68e25112bab7785b34bc726f6160dca1519198c6e8c762"

func TestSansRegularIsUpstream(t *testing.T) {
	sum := sha256.Sum256(liberationsansregular.TTF)
	if got := hex.EncodeToString(sum[:]); got != upstreamSansRegular {
		t.Fatalf("LiberationSans-Regular.ttf: sha256 %s, want upstream v0.5.0's %s", got, upstreamSansRegular)
	}
}

// TestStandInsShareTheFace checks that the eleven stand-ins carry no data
// of their own: each is the kept face's slice, so the linker keeps one copy.
func TestStandInsShareTheFace(t *testing.T) {
	want := liberationsansregular.TTF
	for _, tc := range []struct {
		name string
		ttf  []byte
	}{
		{"monoregular", liberationmonoregular.TTF},
		{"monobold", liberationmonobold.TTF},
		{"monoitalic", liberationmonoitalic.TTF},
		{"monobolditalic", liberationmonobolditalic.TTF},
		{"sansbold", liberationsansbold.TTF},
		{"sansitalic", liberationsansitalic.TTF},
		{"sansbolditalic", liberationsansbolditalic.TTF},
		{"serifregular", liberationserifregular.TTF},
		{"serifbold", liberationserifbold.TTF},
		{"serifitalic", liberationserifitalic.TTF},
		{"serifbolditalic", liberationserifbolditalic.TTF},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.ttf) != len(want) || len(want) == 0 || &tc.ttf[0] != &want[0] {
				t.Fatalf("liberation%s.TTF is not liberationsansregular.TTF (%d bytes, want the same %d)", tc.name, len(tc.ttf), len(want))
			}
		})
	}
}
