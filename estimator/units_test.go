package estimator

import (
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// TestParseUnits: each accepted text and its exact value, each refused
// text and its exact message, for counts, bytes and rows.
func TestParseUnits(t *testing.T) {
	t.Parallel()
	rows, _ := FieldByKey("rows")
	capacity, _ := FieldByKey("capacity_bytes")
	hidden, _ := FieldByKey("hidden_size")
	tests := []struct {
		name  string
		parse func(string) (int64, error)
		text  string
		want  int64
		msg   string // "" = accepted
	}{
		// Today's integers read as before.
		{"count plain", ParseCount, "64902", 64902, ""},
		{"count commas", ParseCount, "64,902", 64902, ""},
		{"count underscores", ParseCount, "64_902", 64902, ""},
		{"count signed", ParseCount, "-3", -3, ""},
		{"count spaces", ParseCount, "  7 ", 7, ""},
		{"count max", ParseCount, "9,223,372,036,854,775,807", math.MaxInt64, ""},
		{"count min", ParseCount, "-9223372036854775808", math.MinInt64, ""},
		// Count suffixes: powers of 1000, k included.
		{"count k", ParseCount, "64k", 64000, ""},
		{"count K", ParseCount, "64K", 64000, ""},
		{"count k space", ParseCount, "64 k", 64000, ""},
		{"count fraction k", ParseCount, "1.5k", 1500, ""},
		{"count M", ParseCount, "1.5M", 1500000, ""},
		{"count G", ParseCount, "2G", 2000000000, ""},
		{"count T", ParseCount, "1T", 1000000000000, ""},
		{"count exponent", ParseCount, "8e10", 80000000000, ""},
		{"count exponent E", ParseCount, "6.4902E4", 64902, ""},
		{"count exponent negative", ParseCount, "649020e-1", 64902, ""},
		{"count exponent and k", ParseCount, "1e3k", 1000000, ""},
		{"count whole decimal", ParseCount, "63.0", 63, ""},
		{"count zero exponent huge", ParseCount, "0e999999999", 0, ""},
		{"count grouped decimal", ParseCount, "1,024.5k", 1024500, ""},
		// Bytes: decimal and binary units.
		{"bytes GiB", ParseBytes, "80GiB", 85899345920, ""},
		{"bytes GB space", ParseBytes, "80 GB", 80000000000, ""},
		{"bytes TiB", ParseBytes, "1.5TiB", 1649267441664, ""},
		{"bytes gib lower", ParseBytes, "80gib", 85899345920, ""},
		{"bytes k", ParseBytes, "64k", 64000, ""},
		{"bytes kB", ParseBytes, "64kB", 64000, ""},
		{"bytes KiB", ParseBytes, "64KiB", 65536, ""},
		{"bytes MiB", ParseBytes, "143,771 MiB", 150754820096, ""},
		{"bytes B", ParseBytes, "512 B", 512, ""},
		{"bytes PiB", ParseBytes, "1PiB", 1 << 50, ""},
		{"bytes PB", ParseBytes, "1PB", 1e15, ""},
		{"bytes exponent", ParseBytes, "8e10", 80000000000, ""},
		{"bytes half KiB", ParseBytes, "0.5KiB", 512, ""},
		{"bytes plain", ParseBytes, "85,020,000,000", 85020000000, ""},
		// Refused, with the reason.
		{"rows fraction", rows.Parse, "1.5", 0, "1.5 rows is not a whole number of rows"},
		{"rows fraction k", rows.Parse, "1.0005k", 0, "1.0005k is 1,000.5 rows, not a whole number of rows"},
		{"rows tiny", rows.Parse, "1e-30", 0, "1e-30 rows is not a whole number of rows"},
		{"rows byte unit", rows.Parse, "64GiB", 0, `is a count, so it takes no byte unit: "64GiB"; a count may end in k, M, G or T (powers of 1000)`},
		{"rows B", rows.Parse, "64 B", 0, `is a count, so it takes no byte unit: "64 B"; a count may end in k, M, G or T (powers of 1000)`},
		{"rows unknown unit", rows.Parse, "12a", 0, `is not an integer: "12a"`},
		{"count fraction", ParseCount, "2048.5", 0, "2048.5 is not a whole number"},
		{"count fraction unit", hidden.Parse, "1.0005k", 0, "1.0005k is 1,000.5, not a whole number"},
		{"bytes fraction", capacity.Parse, "1.5", 0, "1.5 bytes is not a whole number of bytes"},
		{"bytes fraction GB", ParseBytes, "1.0000000001GB", 0, "1.0000000001GB is 1,000,000,000.1 bytes, not a whole number of bytes"},
		{"bytes fraction KiB", ParseBytes, "0.0001KiB", 0, "0.0001KiB is 0.1024 bytes, not a whole number of bytes"},
		{"bytes unknown unit", ParseBytes, "80 GBytes", 0, `has an unknown unit "GBytes": "80 GBytes"; a byte count may end in B, kB, MB, GB, TB, PB (powers of 1000) or KiB, MiB, GiB, TiB, PiB (powers of 1024)`},
		{"overflow exponent", ParseCount, "1e30", 0, `is beyond the range of a 64-bit integer: "1e30"`},
		{"overflow huge exponent", ParseCount, "1e99999999999", 0, `is beyond the range of a 64-bit integer: "1e99999999999"`},
		{"overflow digits", ParseCount, "9223372036854775808", 0, `is beyond the range of a 64-bit integer: "9223372036854775808"`},
		{"overflow unit", ParseBytes, "8EiB", 0, `has an unknown unit "EiB": "8EiB"; a byte count may end in B, kB, MB, GB, TB, PB (powers of 1000) or KiB, MiB, GiB, TiB, PiB (powers of 1024)`},
		{"overflow PiB", ParseBytes, "8192PiB", 0, `is beyond the range of a 64-bit integer: "8192PiB"`},
		{"overflow T", ParseCount, "9300000T", 0, `is beyond the range of a 64-bit integer: "9300000T"`},
		{"NaN", ParseCount, "NaN", 0, `is not a finite integer: "NaN"`},
		{"Inf", ParseBytes, "Inf", 0, `is not a finite integer: "Inf"`},
		{"-Infinity", ParseCount, "-Infinity", 0, `is not a finite integer: "-Infinity"`},
		{"hex", ParseCount, "0x10", 0, `must be written in decimal digits, not hexadecimal, octal or binary: "0x10"`},
		{"binary literal", ParseBytes, "0b101", 0, `must be written in decimal digits, not hexadecimal, octal or binary: "0b101"`},
		{"arabic digits", ParseCount, "٦٤٩٠٢", 0, `must use the digits 0-9: "٦٤٩٠٢"`},
		{"fullwidth digits", ParseBytes, "６４GiB", 0, `must use the digits 0-9: "６４GiB"`},
		{"empty", ParseCount, " ", 0, "is empty"},
		{"double separator", ParseCount, "1,,2", 0, `is not an integer: "1,,2"`},
		{"leading separator", ParseCount, ",1", 0, `is not an integer: ",1"`},
		{"two numbers", ParseCount, "1 2", 0, `is not an integer: "1 2"`},
		{"bare exponent", ParseCount, "1e", 0, `is not an integer: "1e"`},
		{"two points", ParseCount, "1.2.3", 0, `is not an integer: "1.2.3"`},
		{"sign only", ParseCount, "-", 0, `is not an integer: "-"`},
		{"unit only", ParseBytes, "GiB", 0, `is not an integer: "GiB"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.parse(tt.text)
			if tt.msg == "" {
				if err != nil || got != tt.want {
					t.Fatalf("%q = %d, %v; want %d", tt.text, got, err, tt.want)
				}
				return
			}
			if err == nil || err.Error() != tt.msg {
				t.Fatalf("%q = %d, %v\nwant error %q", tt.text, got, err, tt.msg)
			}
		})
	}
}

// TestParseGiBUnits: the GiB field keeps today's readings and takes byte
// units; a GiB figure rounds to the byte, any other unit is exact.
func TestParseGiBUnits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		text string
		want int64
		msg  string
	}{
		{"63.75", 68451041280, ""},
		{"64", 64 << 30, ""},
		{"1,024.5", 1100048498688, ""},
		{"82.182", 88242250580, ""}, // 82.182 x 2^30 = 88,242,250,579.968
		{"0.0000000001", 0, ""},     // 0.107 bytes
		{".5", 1 << 29, ""},
		{"64.", 64 << 30, ""},
		{"6,3.75", 68451041280, ""}, // separators anywhere, as before units
		{"80GiB", 80 << 30, ""},
		{"80 gib", 80 << 30, ""},
		{"63.75 GiB", 68451041280, ""},
		{"82.182GiB", 88242250580, ""},
		{"6.375e1", 68451041280, ""},
		{"1.5TiB", 1649267441664, ""},
		{"80 GB", 80000000000, ""},
		{"512MiB", 512 << 20, ""},
		{"8e10 B", 80000000000, ""},
		{"1e-12", 0, ""},
		{"1e-99999999", 0, ""},
		{"0GiB", 0, ""},
		{"1.5 B", 0, "1.5 B is 1.5 bytes, not a whole number of bytes"},
		{"-1", 0, `must be a non-negative number of GiB, like 63.75: "-1"`},
		{"-1GiB", 0, `must be a non-negative number of GiB, like 63.75: "-1GiB"`},
		{"abc", 0, `must be a non-negative number of GiB, like 63.75: "abc"`},
		{"1.2.3", 0, `must be a non-negative number of GiB, like 63.75: "1.2.3"`},
		{"NaN", 0, `is not a finite number: "NaN"`},
		{"Infinity", 0, `is not a finite number: "Infinity"`},
		{"0x40", 0, `must be written in decimal digits, not hexadecimal, octal or binary: "0x40"`},
		{"٦٤", 0, `must use the digits 0-9: "٦٤"`},
		{"80 GiBs", 0, `has an unknown unit "GiBs": "80 GiBs"; a byte count may end in B, kB, MB, GB, TB, PB (powers of 1000) or KiB, MiB, GiB, TiB, PiB (powers of 1024)`},
		{"9000000000", 0, `is beyond the range of a 64-bit byte count: "9000000000"`},
		{"1e10", 0, `is beyond the range of a 64-bit byte count: "1e10"`},
		{"8589934592GiB", 0, `is beyond the range of a 64-bit byte count: "8589934592GiB"`},
		{"9EB", 0, `has an unknown unit "EB": "9EB"; a byte count may end in B, kB, MB, GB, TB, PB (powers of 1000) or KiB, MiB, GiB, TiB, PiB (powers of 1024)`},
		{"10000PB", 0, `is beyond the range of a 64-bit byte count: "10000PB"`},
		{"", 0, "is empty"},
	}
	for _, tt := range tests {
		t.Run(tt.text, func(t *testing.T) {
			got, err := ParseGiB(tt.text)
			if tt.msg == "" {
				if err != nil || got != tt.want {
					t.Fatalf("ParseGiB(%q) = %d, %v; want %d", tt.text, got, err, tt.want)
				}
				return
			}
			if err == nil || err.Error() != tt.msg {
				t.Fatalf("ParseGiB(%q) = %d, %v\nwant error %q", tt.text, got, err, tt.msg)
			}
		})
	}
}

// TestFieldUnits: every field of docs/model.md §2 has the unit its
// values count, and SetText applies it.
func TestFieldUnits(t *testing.T) {
	t.Parallel()
	bytes := map[string]bool{"capacity_bytes": true, "in_use_bytes": true, "retained_per_row_bytes": true,
		"allocator_round_bytes": true, "dtype_bytes": true,
		"adapter_gradient_bytes_per_layer": true, "adapter_gradient_outside_bytes": true,
		"host_memory_bytes": true, "host_available_bytes": true, "lora_slot_bytes": true}
	for _, f := range append(Fields(), ArtFields()...) {
		want := CountUnit
		switch {
		case f.Kind == BoolField:
			want = NoUnit
		case bytes[f.Key]:
			want = ByteUnit
		}
		if got := f.Unit(); got != want {
			t.Errorf("%s: unit %d, want %d", f.Key, got, want)
		}
	}
	tests := []struct {
		key, text string
		want      int64
		msg       string
	}{
		{"capacity_bytes", "80GiB", 80 << 30, ""},
		{"capacity_bytes", "143771 MiB", 150754820096, ""},
		{"in_use_bytes", "63.75GiB", 68451041280, ""},
		{"rows", "64k", 64000, ""},
		{"rows", "64,902", 64902, ""},
		{"vocab_size", "151.936k", 151936, ""},
		{"dtype_bytes", "2B", 2, ""},
		{"projected_rows", "1.5", 0, "request.projected_rows: 1.5 rows is not a whole number of rows; must be an integer in 1..2,147,483,647"},
		{"rows", "80GiB", 0, `request.rows: is a count, so it takes no byte unit: "80GiB"; a count may end in k, M, G or T (powers of 1000); must be an integer in 1..2,147,483,647`},
		{"capacity_bytes", "1.5", 0, "budget.capacity_bytes: 1.5 bytes is not a whole number of bytes; must be an integer in 1..1,125,899,906,842,624"},
	}
	for _, tt := range tests {
		t.Run(tt.key+"="+tt.text, func(t *testing.T) {
			f, _ := FieldByKey(tt.key)
			c := Default()
			err := f.SetText(&c, tt.text)
			if tt.msg != "" {
				if err == nil || err.Error() != tt.msg {
					t.Fatalf("error %v\nwant  %q", err, tt.msg)
				}
				return
			}
			if got, _ := f.Int(&c); err != nil || got != tt.want {
				t.Fatalf("got %d, %v; want %d", got, err, tt.want)
			}
			// The field shows back the exact integer, which reads the same.
			if text := f.Text(&c); text != strconv.FormatInt(tt.want, 10) {
				t.Errorf("Text = %q", text)
			}
		})
	}
}

// legacyParseGiB is ParseGiB as it was before units: the oracle that
// today's accepted inputs keep their values.
func legacyParseGiB(text string) (int64, bool) {
	s := strings.NewReplacer(",", "", "_", "").Replace(strings.TrimSpace(text))
	if s == "" {
		return 0, false
	}
	for _, r := range s {
		if !(r >= '0' && r <= '9' || r == '.') {
			return 0, false
		}
	}
	rat, ok := new(big.Rat).SetString(s)
	if !ok {
		return 0, false
	}
	rat.Mul(rat, new(big.Rat).SetInt64(1<<30))
	rat.Add(rat, big.NewRat(1, 2))
	n := new(big.Int).Quo(rat.Num(), rat.Denom())
	if !n.IsInt64() {
		return 0, false
	}
	return n.Int64(), true
}

// FuzzParseUnits: no text panics; what ParseInt and the old ParseGiB
// accepted reads the same; an accepted value, written back as the field
// shows it (plain or grouped), reads back to itself.
func FuzzParseUnits(f *testing.F) {
	for _, s := range []string{"64902", "64,902", "80GiB", "80 GB", "1.5TiB", "64k", "8e10", "63.75", "1.5", "1e-30",
		"0x10", "NaN", "٦٤", "1e99999999", "9223372036854775807", "-5", "1,024.5k", ".5", "64.", "0.0001KiB"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for name, parse := range map[string]func(string) (int64, error){"ParseCount": ParseCount, "ParseBytes": ParseBytes} {
			v, err := parse(text)
			if old, oldErr := ParseInt(text); oldErr == nil && (err != nil || v != old) {
				t.Fatalf("%s(%q) = %d, %v; ParseInt gave %d", name, text, v, err, old)
			}
			if err != nil {
				if err.Error() == "" {
					t.Fatalf("%s(%q): empty message", name, text)
				}
				continue
			}
			for _, back := range []string{strconv.FormatInt(v, 10), Group(v)} {
				if w, err := parse(back); err != nil || w != v {
					t.Fatalf("%s(%q) = %d, but %q reads %d, %v", name, text, v, back, w, err)
				}
			}
		}
		v, err := ParseGiB(text)
		if old, ok := legacyParseGiB(text); ok && (err != nil || v != old) {
			t.Fatalf("ParseGiB(%q) = %d, %v; before units %d", text, v, err, old)
		}
		if err == nil {
			if v < 0 {
				t.Fatalf("ParseGiB(%q) = %d", text, v)
			}
			if w, err := ParseGiB(strconv.FormatInt(v, 10) + " B"); err != nil || w != v {
				t.Fatalf("ParseGiB(%q) = %d, but its bytes read %d, %v", text, v, w, err)
			}
		}
	})
}
