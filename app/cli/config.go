package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"headroom/estimator"
	"headroom/estimator/hfconfig"
)

// readConfig reads the -config file ("-" = stdin) and returns its config.
// It takes what the page's import box takes, told apart as the page tells
// them (app/ui ImportJSON):
//
//   - Headroom's own JSON export (a "headroom" key): its "config"; the
//     export's view (axis, range) is the page's and is not read.
//   - A config in the interchange format (a group of the format at the
//     top, or {}), read strictly.
//   - Otherwise a Hugging Face config.json (hfconfig.Import): the
//     model fields and fc2.dtype_bytes from it, everything else the
//     defaults.
//
// A UTF-8 byte order mark at the start is skipped (editors on some
// systems write one), as the workload reader does. When the file is an
// export or a config.json, a note on stderr says so. The error is one
// line: the first problem, naming its field or key, and how many more
// (see oneLine).
func readConfig(cmd, path string, stdin io.Reader, stderr io.Writer) (estimator.Config, error) {
	var r io.Reader
	switch path {
	case "":
		return estimator.Config{}, errors.New("-config: is required (a file, or - for standard input)")
	case "-":
		r = stdin
	default:
		f, err := os.Open(path)
		if err != nil {
			return estimator.Config{}, fmt.Errorf("-config: %v", err)
		}
		defer f.Close()
		r = f
	}
	data, err := io.ReadAll(io.LimitReader(r, estimator.MaxInputBytes+1))
	if err != nil {
		return estimator.Config{}, fmt.Errorf("-config: %v", err)
	}
	cfg, note, err := decodeAnyConfig(data)
	if err != nil {
		return estimator.Config{}, oneLine(err)
	}
	if note != "" {
		fmt.Fprintf(stderr, "headroom %s: -config: %s\n", cmd, note)
	}
	return cfg, nil
}

// utf8BOM is the byte order mark some editors write at a file's start.
var utf8BOM = []byte("\xef\xbb\xbf")

// formatGroups are the top-level keys of the interchange format; a file
// with one of them (or {}, or a file with no key of hfKeys) is read in
// that format.
var formatGroups = estimator.TopLevelKeys()

// hfKeys are keys only a Hugging Face config.json has at its top: a file
// with none of them that is not in the format is reported in the
// format's terms (a misspelt group), not as a config.json.
var hfKeys = []string{"vocab_size", "hidden_size", "num_hidden_layers", "model_type", "architectures", "text_config"}

// decodeAnyConfig reads data as readConfig describes, and says what it
// read when that was not the interchange format.
func decodeAnyConfig(data []byte) (estimator.Config, string, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	probe, err := estimator.DecodeJSONObject(data) // refuses a key given twice, too
	if err != nil {
		cfg, err := estimator.DecodeConfigUnresolved(data) // its message says what is wrong, where
		return cfg, "", err
	}
	if _, ok := probe["headroom"]; ok {
		var f struct {
			Config json.RawMessage `json:"config"`
		}
		if err := json.Unmarshal(data, &f); err != nil || len(f.Config) == 0 {
			return estimator.Config{}, "", errors.New("export: a Headroom export without its \"config\" object")
		}
		cfg, err := estimator.DecodeConfig(f.Config) // the page's own state: checked whole
		if err != nil {
			return cfg, "", prefixFields("export config", err)
		}
		return cfg, "read the config of a Headroom export (its view, the chart's axis and range, is the page's)", nil
	}
	if len(probe) == 0 || hasAny(probe, formatGroups) || !hasAny(probe, hfKeys) {
		cfg, err := estimator.DecodeConfigUnresolved(data)
		return cfg, "", err
	}
	cfg, rep, err := hfconfig.Import(estimator.Default(), data)
	if err != nil {
		if !hasAny(probe, hfKeys) {
			_, specErr := estimator.DecodeConfig(data)
			return estimator.Config{}, "", specErr
		}
		return estimator.Config{}, "", err
	}
	what := "the model fields"
	for _, f := range rep.Recognised {
		if f.Field == "fc2.dtype_bytes" {
			what += " and fc2.dtype_bytes (from " + f.Key + ")"
		}
	}
	note := "read as a Hugging Face config.json: " + what + " from it, every other field its default"
	if n := len(rep.Ignored); n > 0 {
		note += "; " + strconv.Itoa(n) + " of its keys ignored"
	}
	// Whether the weights are counted changes every figure: say it.
	switch {
	case rep.ResidentOff != "":
		note += "; " + rep.ResidentOff
	case rep.ResidentAssumed != "":
		note += "; resident memory computed from the model: " + rep.ResidentAssumed
	}
	return cfg, note, nil
}

func hasAny(m map[string]json.RawMessage, keys []string) bool {
	for _, k := range keys {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// prefixFields names err's fields as inside the export's "config".
func prefixFields(prefix string, err error) error {
	var out estimator.ErrorList
	for _, e := range estimator.FieldErrors(err) {
		f := prefix
		if e.Field != "" && e.Field != "config" {
			f += "." + e.Field
		}
		out = append(out, &estimator.Error{Field: f, Message: e.Message})
	}
	return out
}

// maxNamedMore is how many more fields oneLine names after the first
// error.
const maxNamedMore = 5

// oneLine makes a config error one readable line: the first error whole,
// then how many more and the first few fields they name. A config.json
// read in the wrong format had one error per key, each repeating the
// allowed keys (4,071 characters).
func oneLine(err error) error {
	errs := estimator.FieldErrors(err)
	if len(errs) <= 1 {
		return err
	}
	msg := errs[0].Error()
	var names []string
	for _, e := range errs[1:] {
		if len(names) < maxNamedMore && e.Field != "" {
			names = append(names, e.Field)
		}
	}
	more := len(errs) - 1
	msg += "; and " + strconv.Itoa(more) + " more error"
	if more > 1 {
		msg += "s"
	}
	if len(names) > 0 {
		msg += " (" + strings.Join(names, ", ")
		if more > len(names) {
			msg += ", ..."
		}
		msg += ")"
	}
	return errors.New(msg)
}

// terminalSafe writes the characters of s a terminal could take as
// control (C0 and C1 controls, DEL, and other non-printable runes, but
// not the space) as Go escapes, so that a message never drives the
// terminal that shows it.
func terminalSafe(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r != ' ' && !strconv.IsPrint(r) {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}
