package estimator

import "testing"

func TestReadouts(t *testing.T) {
	t.Parallel()
	c := Default() // sequence_rows 4,096
	tests := []struct {
		name, got, want string
	}{
		{"rows", FormatRows(64902, 4096), "64,902 rows (15.845 sequences)"},
		{"two sequences", FormatRows(8192, 4096), "8,192 rows (2 sequences)"},
		{"one sequence", FormatRows(4096, 4096), "4,096 rows (1 sequence)"},
		{"just over one", FormatRows(4097, 4096), "4,097 rows (1.000 sequences)"},
		{"under one", FormatRows(1, 4096), "1 row (0.000 sequences)"},
		{"no sequences", FormatRows(64902, 0), "64,902 rows"},
		{"bytes", FormatBytes(150754820096), "150,754,820,096 bytes (140.401 GiB)"},
		{"field rows", mustField("rows").FormatValue(64902, &c), "64,902 rows (15.845 sequences)"},
		{"field target_rows", mustField("target_rows").FormatValue(1_000_000, &c), "1,000,000 rows (244.141 sequences)"},
		{"field chunk_rows", mustField("chunk_rows").FormatValue(512, &c), "512 rows"},
		{"field in_use_bytes", mustField("in_use_bytes").FormatValue(68451041280, &c), "68,451,041,280 bytes (63.750 GiB)"},
		{"field vocab_size", mustField("vocab_size").FormatValue(151936, &c), "151,936"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Errorf("got  %q\nwant %q", tt.got, tt.want)
			}
		})
	}
}

func mustField(key string) *Field {
	f, ok := FieldByKey(key)
	if !ok {
		panic("no field " + key)
	}
	return f
}
