package estimator

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestWorkloadBadInput: each bad workload is one clear error naming the
// line (the header is line 1) and the field, and nothing is reported.
func TestWorkloadBadInput(t *testing.T) {
	t.Parallel()
	long := "rows\n" + strings.Repeat("1", MaxWorkloadLineBytes+10) + "\n"
	for _, tc := range []struct {
		name, in string
		want     []string // substrings of the error
		line     int64    // the *LineError's line; 0: not a line error
	}{
		{"empty file", "", []string{"workload: is empty"}, 0},
		{"blank only", "\uFEFF \r\n\n\t\n", []string{"workload: is empty"}, 0},
		{"header only", "rows,count\n", []string{"has a header (line 1) but no request lines"}, 0},
		{"header only after blank lines", "\n\nrows\n\n", []string{"has a header (line 3) but no request lines"}, 0},
		{"missing rows column", "count,id\n1,a\n", []string{"line 1: header: has no rows column"}, 1},
		{"duplicate column", "rows,ROWS\n1,2\n", []string{"line 1: header:", `"rows" appears twice`}, 1},
		{"non-integer cell", "rows,count\n100,1\nabc,2\n", []string{"line 3: request.rows: is not an integer", "1..2,147,483,647"}, 3},
		{"fraction cell", "rows\n1.5\n", []string{"line 2: request.rows: must be a whole number"}, 2},
		{"rows zero", "rows\n0\n", []string{"line 2: request.rows: must be an integer in 1..2,147,483,647, got 0"}, 2},
		{"rows past 2^31-1", "rows\n2147483648\n", []string{"line 2: request.rows:", "got 2,147,483,648"}, 2},
		{"rows beyond int64", "rows\n99999999999999999999\n", []string{"line 2: request.rows: is beyond the range of a 64-bit integer"}, 2},
		{"negative in_use", "rows,in_use_bytes\n100,-1\n", []string{"line 2: budget.in_use_bytes:", "got -1"}, 2},
		{"count zero", "rows,count\n100,0\n", []string{"line 2: count: must be an integer in 1..2,147,483,647, got 0"}, 2},
		{"count past 2^31-1", "rows,count\n100,2147483648\n", []string{"line 2: count:", "got 2,147,483,648"}, 2},
		{"fewer fields", "rows,count\n100\n", []string{"line 2: has 1 fields, the header has 2"}, 2},
		{"bare quote", "rows,id\n100,a\"b\n", []string{"line 2: column", "bare"}, 2},
		{"projected above rows", "rows,projected_rows\n100,101\n", []string{"line 2: request.projected_rows: must be in 1..rows (100), got 101"}, 2},
		{"target above scaled projected", "rows,projected_rows,target_rows\n100,50,60\n", []string{"line 2: request.target_rows:"}, 2},
		{"in_use above capacity", "rows,in_use_bytes\n100,150754820097\n", []string{"line 2: budget.in_use_bytes: must be in 0..capacity_bytes"}, 2},
		{"JSON line not an object", "{\"rows\": 1}\n[1, 2]\n", []string{"line 2: must be a JSON object"}, 2},
		{"JSON invalid", "{\"rows\": 1}\n{\"rows\": }\n", []string{"line 2: is not a valid JSON object"}, 2},
		{"JSON fraction", "{\"rows\": 100.5}\n", []string{"line 1: request.rows: must be a whole number"}, 1},
		{"JSON exponent", "{\"rows\": 1e5}\n", []string{"line 1: request.rows: must be written as a whole number"}, 1},
		{"JSON string number", "{\"rows\": \"100\"}\n", []string{"line 1: request.rows: must be an integer", `got "100"`}, 1},
		{"JSON count zero", "\n{\"rows\": 100, \"count\": 0}\n", []string{"line 2: count:", "got 0"}, 2},
		{"JSON duplicate key", "{\"rows\": 100, \"ROWS\": 7}\n", []string{"line 1: rows: appears twice"}, 1},
		{"JSON id object", "{\"rows\": 100, \"id\": {}}\n", []string{"line 1: id: must be a string or a number"}, 1},
		{"JSON no request lines after one", "{\"rows\": 0}\n", []string{"line 1: request.rows:"}, 1},
		{"line too long", long, []string{"line 2: is longer than 1,048,576 bytes"}, 2},
		{"JSON line too long", `{"rows": 1, "x": "` + strings.Repeat("a", MaxWorkloadLineBytes) + "\"}\n", []string{"line 1: is longer than"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Replay(Default(), strings.NewReader(tc.in), nil)
			if err == nil {
				t.Fatalf("no error; result %+v", res)
			}
			if res.Lines != 0 || res.Transitions != nil {
				t.Errorf("a partial result came with the error: %+v", res)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			var le *LineError
			if got := errors.As(err, &le); got != (tc.line != 0) || (got && le.Line != tc.line) {
				t.Errorf("error %q: want a line error on line %d", err, tc.line)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q spans lines", err)
			}
		})
	}
}

// TestWorkloadFormats: what each format accepts, line numbers and values.
func TestWorkloadFormats(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, in string
		want     []WorkloadLine
		ignored  []string
	}{
		{"quoted fields with commas", "id,rows,note\n\"a, b\",\"64,902\",\"x,\"\"y\"\"\"\n",
			[]WorkloadLine{{Line: 2, ID: "a, b", Count: 1, Shape: Shape{64902, -1, -1, -1, -1}}}, []string{"note"}},
		{"CRLF and BOM", "\uFEFFRows,Count\r\n100,2\r\n\r\n200,\r\n",
			[]WorkloadLine{{Line: 2, Count: 2, Shape: Shape{100, -1, -1, -1, -1}}, {Line: 4, Count: 1, Shape: Shape{200, -1, -1, -1, -1}}}, []string{}},
		{"empty cells take the config", "rows,sequence_rows,projected_rows,target_rows,in_use_bytes,count,id\n,,,,,,\n 7 , 8 ,1,0,5, 3 ,x\n",
			[]WorkloadLine{{Line: 2, Count: 1, Shape: Shape{-1, -1, -1, -1, -1}}, {Line: 3, ID: "x", Count: 3, Shape: Shape{7, 8, 1, 0, 5}}}, []string{}},
		{"header after blank lines", "\n \nrows, Extra ,ID,\n5,q,z,\n",
			[]WorkloadLine{{Line: 4, ID: "z", Count: 1, Shape: Shape{5, -1, -1, -1, -1}}}, []string{"Extra"}},
		{"quoted newline keeps physical lines", "id,rows\n\"two\nlines\",5\nb,6\n",
			[]WorkloadLine{{Line: 2, ID: "two\nlines", Count: 1, Shape: Shape{5, -1, -1, -1, -1}}, {Line: 4, ID: "b", Count: 1, Shape: Shape{6, -1, -1, -1, -1}}}, []string{}},
		{"JSON Lines", "\uFEFF\r\n{\"rows\": 5, \"b\": 1, \"a\": 2}\r\n\r\n{\"ROWS\": null, \"count\": 4, \"id\": 17, \"c\": [], \"a\": 0}\n",
			[]WorkloadLine{{Line: 2, Count: 1, Shape: Shape{5, -1, -1, -1, -1}}, {Line: 4, ID: "17", Count: 4, Shape: Shape{-1, -1, -1, -1, -1}}}, []string{"b", "a", "c"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w, err := NewWorkloadReader(strings.NewReader(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			var got []WorkloadLine
			for {
				var l WorkloadLine
				err := w.Next(&l)
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, l)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Errorf("line %d: got %+v, want %+v", i, got[i], tc.want[i])
				}
			}
			if strings.Join(w.Ignored(), "|") != strings.Join(tc.ignored, "|") {
				t.Errorf("ignored %q, want %q", w.Ignored(), tc.ignored)
			}
		})
	}
}

// TestReplayScalesProjectedRows: a line with rows and neither
// projected_rows nor target_rows scales them as a sweep of rows does, from
// the config's N, P and T; given ones are kept.
func TestReplayScalesProjectedRows(t *testing.T) {
	t.Parallel()
	base := Default()
	base.Request.Rows, base.Request.ProjectedRows, base.Request.TargetRows = 1000, Int64(300), Int64(7)
	r, err := base.Resolve()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name                string
		s                   Shape
		wantN, wantP, wantT int64
	}{
		{"rows only", Shape{10, -1, -1, -1, -1}, 10, 3, 1},
		{"rows 2001", Shape{2001, -1, -1, -1, -1}, 2001, 601, 15},
		{"no rows", Shape{-1, -1, -1, -1, -1}, 1000, 300, 7},
		{"projected given", Shape{500, -1, 400, -1, -1}, 500, 400, 4},
		{"both given", Shape{500, -1, 400, 0, -1}, 500, 400, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got Resolved
			if err := applyShape(&got, &r, &tc.s); err != nil {
				t.Fatal(err)
			}
			if got.N != tc.wantN || got.P != tc.wantP || got.T != tc.wantT {
				t.Errorf("N, P, T = %d, %d, %d; want %d, %d, %d", got.N, got.P, got.T, tc.wantN, tc.wantP, tc.wantT)
			}
		})
	}
}

// linesReader produces a CSV workload of n lines on the fly, cycling
// through a few shapes with varying count and id, so that the test holds
// no copy of it.
type linesReader struct {
	n, i int
	buf  []byte
}

func (r *linesReader) Read(p []byte) (int, error) {
	for len(r.buf) < len(p) && r.i <= r.n {
		if r.i == 0 {
			r.buf = append(r.buf, "id,rows,count,in_use_bytes\n"...)
		} else {
			rows := []int64{4096, 64902, 230000, 500000, 9000000}[r.i%5]
			r.buf = strconv.AppendInt(append(r.buf, "req-"...), int64(r.i), 10)
			r.buf = strconv.AppendInt(append(r.buf, ','), rows, 10)
			r.buf = strconv.AppendInt(append(r.buf, ','), int64(1+r.i%7), 10)
			r.buf = append(r.buf, ',')
			if r.i%3 == 0 {
				r.buf = append(r.buf, "68451041280"...)
			}
			r.buf = append(r.buf, '\n')
		}
		r.i++
	}
	if len(r.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, r.buf)
	r.buf = r.buf[:copy(r.buf, r.buf[n:])]
	return n, nil
}

// TestReplayMemoryBound replays 1,000,000 lines of ten shapes and checks,
// every 100,000 lines, that the live heap stays under a small ceiling:
// memory follows the distinct shapes, not the lines.
func TestReplayMemoryBound(t *testing.T) {
	n := 1_000_000
	if testing.Short() {
		n = 200_000
	}
	const ceiling = 4 << 20
	var ms runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms)
	before := ms.HeapAlloc
	peak := uint64(0)
	seen := 0
	res, err := Replay(Default(), &linesReader{n: n}, func(l ReplayLine) error {
		if seen++; seen%100_000 == 0 {
			runtime.GC()
			runtime.ReadMemStats(&ms)
			peak = max(peak, ms.HeapAlloc-min(ms.HeapAlloc, before))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Lines != int64(n) || len(res.Changed) != MaxChangedLines {
		t.Fatalf("lines %d, changed listed %d", res.Lines, len(res.Changed))
	}
	if peak == 0 || peak > ceiling {
		t.Fatalf("live heap grew by %d bytes during the replay, ceiling %d", peak, ceiling)
	}
	t.Logf("%d lines: live heap at most %d bytes above the start", n, peak)
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// TestReplayStopsAtFirstBadLine: a bad line early in a long workload
// stops the replay, and the reader, soon after it: Replay returns once
// nothing reads the workload any more.
func TestReplayStopsAtFirstBadLine(t *testing.T) {
	t.Parallel()
	const n = 500_000
	src := &countingReader{r: io.MultiReader(strings.NewReader("id,rows,count,in_use_bytes\na,100,1,\nb,100,1,150754820097\n"), &linesReader{n: n, i: 1})}
	_, err := Replay(Default(), src, nil)
	var le *LineError
	if !errors.As(err, &le) || le.Line != 3 || le.Field != "budget.in_use_bytes" {
		t.Fatalf("got %v, want line 3: budget.in_use_bytes", err)
	}
	if total := int64(n * 20); src.n > total/10 {
		t.Fatalf("read %d bytes of about %d after the bad line 3", src.n, total)
	}
	if before := src.n; func() int64 { runtime.Gosched(); return src.n }() != before {
		t.Fatal("the workload is still being read after Replay returned")
	}
}

// FuzzWorkload: random bytes never panic; an error is one line, and a
// replay that succeeds adds up.
func FuzzWorkload(f *testing.F) {
	for _, s := range []string{
		"rows\n100\n", "id,rows,count\n\"a,b\",64902,3\r\n", "\uFEFFROWS;count\n1;2\n",
		"{\"rows\": 230000, \"count\": 2}\n{\"rows\": null}\n", "rows,projected_rows\n10,11\n",
		"rows,in_use_bytes,sequence_rows,target_rows\n200000,68451041280,1,0\n", "{\"rows\": 1e3}\n[]\n",
		"rows\n\"1\n2\"\n", "", "\n\n", "rows,rows\n1,1\n", "{\"id\": \"\\u00e9\", \"rows\": 5, \"x\": {\"y\": 1}}\n",
	} {
		f.Add([]byte(s))
	}
	// Every column, in CSV and in JSON Lines: a plain go test runs them.
	for _, c := range workloadColumns {
		f.Add([]byte("rows," + c + "\n64902,1\n"))
		f.Add([]byte(`{"rows": 64902, "` + c + `": 1}` + "\n"))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		res, err := Replay(Default(), bytes.NewReader(data), nil)
		if err != nil {
			if strings.ContainsAny(err.Error(), "\r\n") {
				t.Fatalf("error %q spans lines", err)
			}
			return
		}
		var req, rows int64
		for _, tr := range res.Transitions {
			req += tr.Requests
			rows += tr.Rows
		}
		if res.Lines < 1 || req != res.Requests || rows != res.Rows || res.Requests < res.Lines {
			t.Fatalf("sums do not add up: %+v", res)
		}
		if int64(len(res.Changed)) > res.ChangedLines || res.ChangedRequests+res.ChildrenChangedRequests > res.Requests {
			t.Fatalf("changed does not add up: %+v", res)
		}
	})
}

// FuzzJSONMembers: on any valid JSON object, eachMember finds the members
// encoding/json decodes, with the same values (the last of a
// repeated key, as a map keeps it).
func FuzzJSONMembers(f *testing.F) {
	for _, s := range []string{`{}`, `{"rows": 5}`, ` { "a" : [1, {"b": "}"}], "c\"d": "x\\", "e": null } `,
		`{"rows": 1, "rows": 2}`, `{"\u0072ows": -0.5e3, "n": {"m": [[], {}]}}`, `{"a":true,"b":false}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		text := bytes.TrimSpace(data)
		if !json.Valid(text) || len(text) == 0 || text[0] != '{' {
			return
		}
		var want map[string]json.RawMessage
		if err := json.Unmarshal(text, &want); err != nil {
			t.Fatalf("valid JSON did not decode: %v", err)
		}
		got := map[string]string{}
		err := eachMember(text, func(key []byte, escaped bool, raw []byte) error {
			var name string
			if err := json.Unmarshal(key, &name); err != nil {
				t.Fatalf("key %q: %v", key, err)
			}
			if escaped != bytes.Contains(key, []byte(`\`)) {
				t.Fatalf("key %q: escaped = %v", key, escaped)
			}
			got[name] = string(raw)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) {
			t.Fatalf("%d members, encoding/json finds %d: %q", len(got), len(want), text)
		}
		for k, v := range want {
			if got[k] != string(v) {
				t.Fatalf("member %q: %q, encoding/json %q", k, got[k], v)
			}
		}
	})
}
