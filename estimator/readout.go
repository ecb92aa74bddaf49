package estimator

import "strconv"

// FormatBytes writes a byte count for a read-out, exact with GiB beside
// it: "150,754,820,096 bytes (140.402 GiB)" (Bytes.String).
func FormatBytes(b int64) string { return Bytes(b).String() }

// FormatRows writes a row count for a read-out with the sequences it
// makes beside it (rows / sequence_rows): "64,902 rows (15.845
// sequences)", "8,192 rows (2 sequences)", "4,096 rows (1 sequence)". A
// whole number of sequences is written exactly, any other with three
// decimals (as GiB are). With sequenceRows below 1 there are no
// sequences to count: "64,902 rows".
func FormatRows(rows, sequenceRows int64) string {
	s := Group(rows) + " rows"
	if rows == 1 {
		s = "1 row"
	}
	if sequenceRows < 1 {
		return s
	}
	var seq string
	if rows%sequenceRows == 0 {
		seq = Group(rows / sequenceRows)
	} else {
		seq = strconv.FormatFloat(float64(rows)/float64(sequenceRows), 'f', 3, 64)
	}
	word := " sequences)"
	if seq == "1" {
		word = " sequence)"
	}
	return s + " (" + seq + word
}

// FormatValue writes a value of the field for a read-out (a flip
// sentence, an axis tick's label): a byte field as FormatBytes, the
// request's row counts (rows, projected_rows, target_rows) as FormatRows
// with c's sequence_rows, other row counts (sequence_rows, chunk_rows)
// as "4,096 rows", and any other count grouped, without a unit ("151,936";
// the caller names the field).
func (f *Field) FormatValue(v int64, c *Config) string {
	switch {
	case f.Unit() == ByteUnit:
		return FormatBytes(v)
	case f.Key == "rows" || f.Key == "projected_rows" || f.Key == "target_rows":
		return FormatRows(v, c.Request.SequenceRows)
	case f.noun() == "rows":
		return Group(v) + " rows"
	}
	return Group(v)
}
