package measure

import "sort"

// Two runs side by side (docs/model.md, "Two runs"): the evidence a
// reviewer of a memory change reads. Each device of run A is set beside
// the same device of run B.

// maxBlockRows bounds each list of blocks in a comparison.
const maxBlockRows = 50

// RunPeaks are one run's figures on a device.
type RunPeaks struct {
	PeakBytes         int64 `json:"peak_bytes"`
	ReservedPeakBytes int64 `json:"reserved_peak_bytes"`
	InitialBytes      int64 `json:"initial_bytes"`
	Events            int   `json:"events"`
}

// BlockChange is a live block at the peak of one run or both, by its top
// frame: only in A (B 0), only in B (A 0), or the same frame's block
// grown or shrunk.
type BlockChange struct {
	Frame  string `json:"frame"`
	ABytes int64  `json:"a_bytes"`
	BBytes int64  `json:"b_bytes"`
}

// BlockGroup is one kind of change: its count, its bytes (B less A for
// grown and shrunk, the blocks' bytes otherwise) and the largest
// changes, at most 50.
type BlockGroup struct {
	Count  int           `json:"count"`
	Bytes  int64         `json:"bytes"`
	Blocks []BlockChange `json:"blocks"`
}

// WindowPair is a window of each run with the same marker label (the
// k-th of a label in A with the k-th in B); nil where a run has none.
type WindowPair struct {
	Label string  `json:"label"`
	A     *Window `json:"a"`
	B     *Window `json:"b"`
	// DeltaBytes is B's peak less A's, when both have the window.
	DeltaBytes int64 `json:"delta_bytes"`
}

// DeviceComparison is one device of two runs.
type DeviceComparison struct {
	Device int      `json:"device"`
	A      RunPeaks `json:"a"`
	B      RunPeaks `json:"b"`
	// PeakDeltaBytes and ReservedDeltaBytes are B less A.
	PeakDeltaBytes     int64 `json:"peak_delta_bytes"`
	ReservedDeltaBytes int64 `json:"reserved_delta_bytes"`
	// EqualStart is whether both runs began with the same allocated
	// bytes (the blocks from before the trace).
	EqualStart bool `json:"equal_start"`
	// The live blocks at each peak, matched by top frame and size.
	Unchanged BlockGroup   `json:"unchanged"`
	OnlyA     BlockGroup   `json:"only_a"`
	OnlyB     BlockGroup   `json:"only_b"`
	Grown     BlockGroup   `json:"grown"`
	Shrunk    BlockGroup   `json:"shrunk"`
	Windows   []WindowPair `json:"windows"`
}

// CompareRuns sets each device of a beside the same device of b; a device
// in one run only is compared with an empty one.
func CompareRuns(a, b []DeviceReport) []DeviceComparison {
	byDev := map[int][2]*DeviceReport{}
	for i := range a {
		p := byDev[a[i].Device]
		p[0] = &a[i]
		byDev[a[i].Device] = p
	}
	for i := range b {
		p := byDev[b[i].Device]
		p[1] = &b[i]
		byDev[b[i].Device] = p
	}
	devs := make([]int, 0, len(byDev))
	for d := range byDev {
		devs = append(devs, d)
	}
	sort.Ints(devs)
	out := make([]DeviceComparison, 0, len(devs))
	for _, d := range devs {
		p := byDev[d]
		ra, rb := orEmpty(p[0], d), orEmpty(p[1], d)
		c := DeviceComparison{Device: d, A: peaksOf(ra), B: peaksOf(rb)}
		c.PeakDeltaBytes = delta(c.B.PeakBytes, c.A.PeakBytes)
		c.ReservedDeltaBytes = delta(c.B.ReservedPeakBytes, c.A.ReservedPeakBytes)
		c.EqualStart = c.A.InitialBytes == c.B.InitialBytes
		matchBlocks(&c, ra.LiveAtPeak, rb.LiveAtPeak)
		c.Windows = pairWindows(ra.Windows, rb.Windows)
		out = append(out, c)
	}
	return out
}

func orEmpty(r *DeviceReport, d int) *DeviceReport {
	if r == nil {
		return &DeviceReport{Device: d}
	}
	return r
}

func peaksOf(r *DeviceReport) RunPeaks {
	p := RunPeaks{PeakBytes: r.PeakBytes, InitialBytes: r.InitialBytes, Events: r.Events}
	if r.Allocator != nil {
		p.ReservedPeakBytes = r.Allocator.ReservedPeakBytes
	}
	return p
}

// delta is b - a, saturated at int64's range.
func delta(b, a int64) int64 {
	d := b - a
	switch {
	case a < 0 && b > 0 && d < 0:
		return 1<<63 - 1
	case a > 0 && b < 0 && d > 0:
		return -1 << 63
	}
	return d
}

// matchBlocks pairs the live blocks of a frame in A with those of the
// same frame in B: equal sizes first, then the rest largest with largest
// (grown or shrunk); what remains is in one run only.
func matchBlocks(c *DeviceComparison, a, b []LiveBlock) {
	sizes := func(ls []LiveBlock) map[string][]int64 {
		m := map[string][]int64{}
		for _, l := range ls {
			m[l.Frame] = append(m[l.Frame], l.Size)
		}
		return m
	}
	sa, sb := sizes(a), sizes(b)
	frames := map[string]bool{}
	for f := range sa {
		frames[f] = true
	}
	for f := range sb {
		frames[f] = true
	}
	add := func(g *BlockGroup, ch BlockChange, bytes int64) {
		g.Count++
		g.Bytes += bytes
		g.Blocks = append(g.Blocks, ch)
	}
	for f := range frames {
		xa, xb := sa[f], sb[f]
		sort.Slice(xa, func(i, j int) bool { return xa[i] > xa[j] })
		sort.Slice(xb, func(i, j int) bool { return xb[i] > xb[j] })
		// Equal sizes: a merge of the two descending lists.
		var ra, rb []int64
		i, j := 0, 0
		for i < len(xa) && j < len(xb) {
			switch {
			case xa[i] == xb[j]:
				add(&c.Unchanged, BlockChange{Frame: f, ABytes: xa[i], BBytes: xb[j]}, xa[i])
				i++
				j++
			case xa[i] > xb[j]:
				ra = append(ra, xa[i])
				i++
			default:
				rb = append(rb, xb[j])
				j++
			}
		}
		ra, rb = append(ra, xa[i:]...), append(rb, xb[j:]...)
		k := 0
		for ; k < len(ra) && k < len(rb); k++ {
			ch := BlockChange{Frame: f, ABytes: ra[k], BBytes: rb[k]}
			if rb[k] > ra[k] {
				add(&c.Grown, ch, rb[k]-ra[k])
			} else {
				add(&c.Shrunk, ch, rb[k]-ra[k])
			}
		}
		for _, s := range ra[k:] {
			add(&c.OnlyA, BlockChange{Frame: f, ABytes: s}, s)
		}
		for _, s := range rb[k:] {
			add(&c.OnlyB, BlockChange{Frame: f, BBytes: s}, s)
		}
	}
	for _, g := range []*BlockGroup{&c.Unchanged, &c.OnlyA, &c.OnlyB, &c.Grown, &c.Shrunk} {
		sort.Slice(g.Blocks, func(i, j int) bool {
			di, dj := abs(g.Blocks[i].BBytes-g.Blocks[i].ABytes), abs(g.Blocks[j].BBytes-g.Blocks[j].ABytes)
			if di != dj {
				return di > dj
			}
			if g.Blocks[i].ABytes != g.Blocks[j].ABytes {
				return g.Blocks[i].ABytes > g.Blocks[j].ABytes
			}
			return g.Blocks[i].Frame < g.Blocks[j].Frame
		})
		if g == &c.Unchanged {
			g.Blocks = nil // counted, not listed
		} else if len(g.Blocks) > maxBlockRows {
			g.Blocks = g.Blocks[:maxBlockRows]
		}
		if g.Blocks == nil {
			g.Blocks = []BlockChange{}
		}
	}
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// pairWindows matches windows by label, in order of A then B's others.
func pairWindows(a, b []Window) []WindowPair {
	seen := map[string]int{}
	inB := map[string][]int{}
	for i, w := range b {
		inB[w.Label] = append(inB[w.Label], i)
	}
	used := make([]bool, len(b))
	out := []WindowPair{}
	for i := range a {
		w := &a[i]
		k := seen[w.Label]
		seen[w.Label]++
		p := WindowPair{Label: w.Label, A: w}
		if idx := inB[w.Label]; k < len(idx) {
			p.B = &b[idx[k]]
			used[idx[k]] = true
			p.DeltaBytes = delta(p.B.PeakBytes, w.PeakBytes)
		}
		out = append(out, p)
	}
	for i := range b {
		if !used[i] {
			out = append(out, WindowPair{Label: b[i].Label, B: &b[i]})
		}
	}
	return out
}
