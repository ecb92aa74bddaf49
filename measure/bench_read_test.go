package measure

import (
	"os"
	"testing"
)

// BenchmarkReadSnapshotFile reads the snapshot named by
// HEADROOM_SNAPSHOT (make bench-measure generates them); without it there
// is nothing to read.
func BenchmarkReadSnapshotFile(b *testing.B) {
	name := os.Getenv("HEADROOM_SNAPSHOT")
	if name == "" {
		b.Skip("HEADROOM_SNAPSHOT names no file")
	}
	fi, err := os.Stat(name)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(fi.Size())
	for i := 0; i < b.N; i++ {
		f, err := os.Open(name)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := ReadSnapshot(f, ReadOptions{MaxBytes: 2 << 30}); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}
