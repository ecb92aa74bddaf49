package measure

import (
	"io"
)

// Analysis is a snapshot read and replayed: what ReadSnapshot and
// Analyze give, without the trace.
type Analysis struct {
	Format  string
	History bool
	Devices []DeviceReport
}

// AnalyzeStream reads a snapshot and replays it without holding its
// trace: open(1) and then open(2) each give the whole input from its
// first byte, and each is read once, front to back. Memory is the
// segments, the blocks live at once and the top frames, not the entries.
func AnalyzeStream(open func(pass int) (io.Reader, error), opt ReadOptions, points int) (*Analysis, error) {
	// Until the two-pass replay lands: the first pass reads as
	// ReadSnapshot does, the second only drains its input.
	r, err := open(1)
	if err != nil {
		return nil, err
	}
	s, err := ReadSnapshot(r, opt)
	if err != nil {
		return nil, err
	}
	devs, err := Analyze(s, points)
	if err != nil {
		return nil, err
	}
	r2, err := open(2)
	if err != nil {
		return nil, err
	}
	if _, err := io.Copy(io.Discard, r2); err != nil {
		return nil, err
	}
	return &Analysis{Format: s.Format, History: s.History, Devices: devs}, nil
}
