package measure

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// readSnapshotJSON reads the JSON form as a stream into s: the root
// object's keys one at a time, each segment and each trace entry decoded
// alone and converted before the next (an entry handed to sink), so the
// memory is the result and one entry, not the document. Values of other
// keys are skipped token by token.
func readSnapshotJSON(r io.Reader, limit int64, s *Snapshot, sink eventSink) error {
	dec := json.NewDecoder(r)
	dec.UseNumber()
	var next int32
	w := &walker{left: math.MaxInt64, byContent: map[Frame]int32{}, sink: sink, nextID: &next}
	jerr := func(err error) error {
		if errors.Is(err, ErrTooLarge) {
			return fmt.Errorf("json: %w: more than %d bytes", ErrTooLarge, limit)
		}
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return fmt.Errorf("json: %v", err)
	}
	if _, err := dec.Token(); err != nil { // '{', as the caller saw
		return jerr(err)
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return jerr(err)
		}
		key, _ := tok.(string)
		if seen[key] && (key == "segments" || key == "device_traces") {
			return fmt.Errorf("snapshot.%s: given twice", key)
		}
		seen[key] = true
		switch key {
		case "segments":
			err = w.jsonList(dec, "segments", func(i int, v any) error {
				seg, err := w.convertSegment(v, "segments["+strconv.Itoa(i)+"]")
				if err == nil {
					s.Segments = append(s.Segments, seg)
				}
				return err
			})
		case "device_traces":
			err = w.jsonTraces(dec, s)
		default:
			err = skipValue(dec)
		}
		if err != nil {
			var je *jsonErr
			if errors.As(err, &je) {
				return jerr(je.err)
			}
			return err
		}
	}
	if _, err := dec.Token(); err != nil { // '}'
		return jerr(err)
	}
	if !seen["segments"] {
		return errors.New("snapshot.segments: missing: not a memory snapshot (torch.cuda.memory._snapshot() has segments and device_traces)")
	}
	return nil
}

// jsonErr is the decoder's own error (syntax, truncation, size), told
// apart from a conversion's.
type jsonErr struct{ err error }

func (e *jsonErr) Error() string { return e.err.Error() }

// jsonList reads a list at path, calling each with every item decoded.
func (w *walker) jsonList(dec *json.Decoder, path string, each func(int, any) error) error {
	tok, err := dec.Token()
	if err != nil {
		return &jsonErr{err}
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return notList(dec, path, tok)
	}
	for i := 0; dec.More(); i++ {
		var v any
		if err := dec.Decode(&v); err != nil {
			return &jsonErr{err}
		}
		if err := each(i, v); err != nil {
			return err
		}
	}
	if _, err := dec.Token(); err != nil {
		return &jsonErr{err}
	}
	return nil
}

// notList is the error for a value that should have been a list.
func notList(dec *json.Decoder, path string, tok json.Token) error {
	var v any = tok
	if d, ok := tok.(json.Delim); ok && d == '{' {
		v = map[string]any{}
	}
	return wrongType(path, "a list", v)
}

// jsonTraces reads device_traces: a list of lists of entries (null: no
// history).
func (w *walker) jsonTraces(dec *json.Decoder, s *Snapshot) error {
	tok, err := dec.Token()
	if err != nil {
		return &jsonErr{err}
	}
	if tok == nil {
		return nil
	}
	s.History = true
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return notList(dec, "device_traces", tok)
	}
	for dev := 0; dec.More(); dev++ {
		stream := int32(-1)
		path := "device_traces[" + strconv.Itoa(dev) + "]"
		err := w.jsonList(dec, path, func(i int, v any) error {
			e, err := w.convertEvent(s, v, path+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return err
			}
			if stream < 0 {
				stream = w.newStream()
			}
			return w.sink.event(stream, &e)
		})
		if err != nil {
			return err
		}
		s.streams = append(s.streams, stream)
	}
	if _, err := dec.Token(); err != nil {
		return &jsonErr{err}
	}
	return nil
}

// maxSkipDepth bounds the nesting of a value skipped.
const maxSkipDepth = 1000

// skipValue reads past one value, token by token (the decoder bounds its
// nesting).
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return &jsonErr{err}
		}
		if d, ok := tok.(json.Delim); ok {
			if d == '[' || d == '{' {
				if depth++; depth > maxSkipDepth {
					return fmt.Errorf("json: a value nested more than %d deep", maxSkipDepth)
				}
			} else {
				depth--
			}
		}
		if depth == 0 {
			return nil
		}
	}
}
