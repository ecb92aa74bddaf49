package estimator

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"testing"
)

// variedWorkload is a CSV workload of n lines of varied shapes: rows
// from 1,000 to 1,000,000 (nearly every line its own shape), a sequence
// length on one line in ten, counts and ids, as examples/gen-workload
// writes them.
func variedWorkload(n int) []byte {
	rng := rand.New(rand.NewPCG(7, 14))
	var b bytes.Buffer
	b.WriteString("id,rows,sequence_rows,count,tenant\n")
	for i := 1; i <= n; i++ {
		b.WriteString("req-")
		b.WriteString(strconv.Itoa(i))
		b.WriteByte(',')
		b.WriteString(strconv.FormatInt(1000+rng.Int64N(999_001), 10))
		b.WriteByte(',')
		if rng.IntN(10) == 0 {
			b.WriteString("8192")
		}
		b.WriteByte(',')
		b.WriteString(strconv.Itoa(1 + rng.IntN(3)))
		b.WriteString(",chat\n")
	}
	return b.Bytes()
}

// BenchmarkReplay1M replays 1,000,000 lines of varied shapes from memory
// under the FC2 seed's pressure (63.75 GiB in use): the estimator's part
// of replay_1m_native_ms.
//
//	go test -run '^$' -bench Replay1M -benchtime 3x ./estimator/
func BenchmarkReplay1M(b *testing.B) {
	data := variedWorkload(1_000_000)
	c := Default()
	c.Request.Rows, c.Budget.InUseBytes = 200000, 68451041280
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := Replay(c, bytes.NewReader(data), nil)
		if err != nil {
			b.Fatal(err)
		}
		if res.Lines != 1_000_000 || res.ChangedLines == 0 {
			b.Fatalf("lines %d, changed %d", res.Lines, res.ChangedLines)
		}
	}
}
