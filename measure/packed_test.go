package measure

import (
	"math"
	"math/rand"
	"reflect"
	"testing"
)

// TestPackedTraceLosesNothing: entries packed and unpacked are the
// entries, extreme values and chunk boundaries included.
func TestPackedTraceLosesNothing(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(1))
	pick := func() int64 {
		switch rng.Intn(6) {
		case 0:
			return 0
		case 1:
			return math.MaxInt64
		case 2:
			return math.MinInt64
		case 3:
			return -rng.Int63()
		}
		return rng.Int63n(1 << uint(rng.Intn(62)+1))
	}
	var want []Event
	var p packedTrace
	for i := 0; i < 300_000; i++ {
		e := Event{Action: Action(rng.Intn(len(actionNames))), Addr: pick() & math.MaxInt64, Size: pick() & math.MaxInt64,
			TimeUS: pick(), Stream: pick(), DeviceFree: pick(), Frame: int32(rng.Intn(3) * rng.Intn(1<<20)), Note: int32(rng.Intn(2) * rng.Intn(1<<31-1))}
		want = append(want, e)
		p.add(&e)
	}
	if len(p.chunks) < 2 {
		t.Fatalf("%d chunks: the boundary between chunks was not crossed", len(p.chunks))
	}
	if got := p.events(); !reflect.DeepEqual(got, want) {
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("entry %d: %+v, want %+v", i, got[i], want[i])
			}
		}
		t.Fatalf("%d entries, want %d", len(got), len(want))
	}
}
