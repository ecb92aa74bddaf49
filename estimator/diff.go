package estimator

// Diff returns b - a: how many bytes b needs beyond a (negative when it
// needs fewer). Byte counts of the model are never negative, so the
// difference of two of them always fits in an int64. It exists so that
// the explorer's comparison of baseline and candidate does no byte
// arithmetic of its own.
func Diff(a, b Bytes) Bytes { return b - a }

// DeltaString shows a difference as String shows a count, with its sign:
// "+1,603,339,264 bytes (+1.493 GiB)", "-512 bytes (-0.000 GiB)",
// "0 bytes (0.000 GiB)".
func (b Bytes) DeltaString() string {
	if b > 0 {
		return "+" + Group(int64(b)) + " bytes (+" + b.GiBString() + " GiB)"
	}
	return b.String()
}
