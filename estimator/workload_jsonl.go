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
	clear(w.obj)
	if err := json.Unmarshal(text, &w.obj); err != nil {
		return &LineError{Line: l.Line, Message: "is not a valid JSON object: " + err.Error()}
	}
	var cells [numCols]string
	var has [numCols]bool
	fresh := false
	for key, raw := range w.obj {
		c := columnOf(key)
		if c < 0 {
			fresh = fresh || !w.ignoredSet[key]
			continue
		}
		if has[c] {
			return &LineError{Line: l.Line, Field: workloadColumns[c], Message: "appears twice (keys are case-insensitive)"}
		}
		cells[c], has[c] = string(bytes.TrimSpace(raw)), true
	}
	if fresh {
		if err := w.ignoreKeysOf(text); err != nil {
			return err
		}
	}
	return w.fill(l, &cells, &has, true)
}

// columnOf is the known column named key, case-insensitively, or -1.
func columnOf(key string) int {
	for c, known := range workloadColumns {
		if key == known {
			return c
		}
	}
	for c, known := range workloadColumns {
		if strings.EqualFold(key, known) {
			return c
		}
	}
	return -1
}

// ignoreKeysOf adds the unknown keys of one JSON object to the ignored
// ones, in the order the line has them.
func (w *WorkloadReader) ignoreKeysOf(text []byte) error {
	dec := json.NewDecoder(bytes.NewReader(text))
	if _, err := dec.Token(); err != nil { // {
		return nil
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil
		}
		key, _ := tok.(string)
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil
		}
		if columnOf(key) < 0 {
			if err := w.ignore(key); err != nil {
				return err
			}
		}
	}
	return nil
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
