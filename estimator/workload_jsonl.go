package estimator

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"
)

// The JSON Lines side of WorkloadReader: one object a line.

func (w *WorkloadReader) nextJSON(l *WorkloadLine) error {
	var text []byte
	for {
		if !w.sc.Scan() {
			if err := w.sc.Err(); err != nil {
				if err == bufio.ErrTooLong {
					return &LineError{Line: w.line + 1, Message: "is longer than " + Group(MaxWorkloadLineBytes) + " bytes"}
				}
				return readError(err)
			}
			return io.EOF
		}
		w.line++
		if len(w.sc.Bytes()) > MaxWorkloadLineBytes {
			return &LineError{Line: w.line, Message: "is longer than " + Group(MaxWorkloadLineBytes) + " bytes"}
		}
		text = bytes.TrimSpace(w.sc.Bytes())
		if len(text) > 0 {
			break
		}
	}
	l.Line = w.line
	if text[0] != '{' {
		return &LineError{Line: l.Line, Message: "must be a JSON object (JSON Lines: one object a line), got " + clip(string(text))}
	}
	if !json.Valid(text) {
		var v any
		msg := "is not valid JSON"
		if err := json.Unmarshal(text, &v); err != nil {
			msg = "is not a valid JSON object: " + err.Error()
		}
		return &LineError{Line: l.Line, Message: msg}
	}
	var cells [numCols]string
	var has [numCols]bool
	err := eachMember(text, func(key []byte, escaped bool, raw []byte) error {
		name := ""
		if escaped {
			if err := json.Unmarshal(key, &name); err != nil {
				return &LineError{Line: l.Line, Message: "has a key that is not a valid JSON string"}
			}
		}
		var c int
		if escaped {
			c = columnOf([]byte(name))
		} else {
			c = columnOf(key[1 : len(key)-1])
		}
		if c < 0 {
			if escaped {
				return w.ignore(name)
			}
			if !w.ignoredSet[string(key[1:len(key)-1])] {
				return w.ignore(string(key[1 : len(key)-1]))
			}
			return nil
		}
		if has[c] {
			return &LineError{Line: l.Line, Field: workloadColumns[c], Message: "appears twice (keys are case-insensitive)"}
		}
		cells[c], has[c] = string(raw), true
		return nil
	})
	if err != nil {
		return err
	}
	return w.fill(l, &cells, &has, true)
}

// columnOf is the known column named key, case-insensitively, or -1.
func columnOf(key []byte) int {
	for c, known := range workloadColumns {
		if string(key) == known {
			return c
		}
	}
	for c, known := range workloadColumns {
		if bytes.EqualFold(key, []byte(known)) {
			return c
		}
	}
	return -1
}

// eachMember calls fn with each member of the JSON object text, in order:
// its key as written (quotes included; escaped when it holds a
// backslash) and its value's bytes. text must be one valid JSON object
// (json.Valid, first byte '{'): this only finds where members begin and
// end, which is far cheaper than decoding them into a map. An index past
// text (not possible for valid input) ends the walk with an error rather
// than a panic.
func eachMember(text []byte, fn func(key []byte, escaped bool, raw []byte) error) error {
	bad := &Error{Field: "workload", Message: "internal: a JSON object ended early"}
	i := skipSpace(text, 1)
	if i < len(text) && text[i] == '}' {
		return nil
	}
	for i < len(text) {
		end := stringEnd(text, i)
		if end < 0 {
			return bad
		}
		key := text[i:end]
		i = skipSpace(text, end)
		if i >= len(text) || text[i] != ':' {
			return bad
		}
		i = skipSpace(text, i+1)
		vend := valueEnd(text, i)
		if vend < 0 {
			return bad
		}
		if err := fn(key, bytes.IndexByte(key, '\\') >= 0, text[i:vend]); err != nil {
			return err
		}
		i = skipSpace(text, vend)
		if i < len(text) && text[i] == ',' {
			i = skipSpace(text, i+1)
			continue
		}
		return nil
	}
	return bad
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n') {
		i++
	}
	return i
}

// stringEnd is the index after the JSON string starting at b[i], or -1.
func stringEnd(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	for j := i + 1; j < len(b); j++ {
		switch b[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return -1
}

// valueEnd is the index after the JSON value starting at b[i], or -1.
func valueEnd(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				if j = stringEnd(b, j); j < 0 {
					return -1
				}
				j--
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && b[j] != ',' && b[j] != '}' && b[j] != ']' && b[j] != ' ' && b[j] != '\t' && b[j] != '\r' && b[j] != '\n' {
		j++
	}
	return j
}

// idValue is the id as echoed: a CSV cell as it is; in JSON, a string's
// text, a number's literal, null as "".
func idValue(cell string, isJSON bool) (string, error) {
	switch {
	case !isJSON:
		return cell, nil
	case cell == "null":
		return "", nil
	case strings.HasPrefix(cell, `"`):
		var s string
		if err := json.Unmarshal([]byte(cell), &s); err != nil {
			return "", err
		}
		return s, nil
	case cell != "" && (cell[0] == '-' || isDigit(cell[0])):
		return cell, nil
	}
	return "", errors.New("must be a string or a number, got " + clip(cell))
}
