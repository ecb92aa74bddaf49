package measure

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"sort"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"
)

// MaxReportBytes is the largest planner-miss report ART writes and reads
// (MAX_REPORT_BYTES).
const MaxReportBytes = 16 << 20

// reportKeys are a report's top-level keys (format 1); format 2 adds
// formatTwoKeys.
var (
	reportKeys = []string{"format", "kind", "id", "occurred_at", "phase", "oom", "threshold_pct",
		"predicted_peak_bytes", "admission_peak_bytes", "observed_peak_bytes", "partial_peak_bytes",
		"error_pct", "replay_complete", "incomplete_reasons", "replay_scope", "replay"}
	formatTwoKeys = []string{"event", "decision", "failure"}
	// reportID and eventName are compiled at the first report read, not in
	// the package's init, which the browser runs in the page's first long
	// task on every visit.
	reportID  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[0-9a-f]{32}$`) })
	eventName = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z_]{0,63}$`) })
)

// Report is one planner-miss report, validated.
type Report struct {
	File       string
	Format     int64
	ID         string
	Event      string
	Phase      string
	OOM        bool
	Predicted  *int64
	Admission  *int64
	Observed   *int64
	Partial    *int64
	ErrorPct   *float64
	replay     *jsonValue
	occurredAt time.Time
}

// ReportError is a report refused: its file and the rule it breaks.
type ReportError struct {
	File string
	Rule string
}

func (e *ReportError) Error() string { return e.File + ": " + e.Rule }

// ParseReport validates one planner-miss report as ART's _decode_report
// and validate_report do (docs/model.md §13.9): at most 16 MiB; canonical
// JSON (keys sorted, separators "," and ":", ASCII escapes, no NaN, a
// final newline); exactly the keys of its format; kind, id, phase,
// occurred_at (ISO 8601, UTC); memory values null or integers >= 0; the
// event (format 2's field, or format 1's "oom"/"estimate_miss") agreeing
// with oom; a prediction unless the event is a planning failure;
// percentages finite and >= 0; an OOM or a planning failure claims no
// completed measurement; an estimate_miss has an observation, its
// error_pct equals the float64 of 100 x |observed - predicted| /
// predicted, and the miss exceeds the threshold. The error is a
// *ReportError naming file and rule.
//
// Modelled as: format 2's event is any lower-case name (ART checks it
// against _planner_evidence.EVENTS, which the stored sources do not list),
// and its decision and failure objects are not checked further.
func ParseReport(file string, raw []byte) (*Report, error) {
	refuse := func(format string, a ...any) error {
		return &ReportError{File: file, Rule: fmt.Sprintf(format, a...)}
	}
	if len(raw) > MaxReportBytes {
		return nil, refuse("report exceeds byte limit (%d bytes, at most %d)", len(raw), MaxReportBytes)
	}
	if !utf8.Valid(raw) {
		return nil, refuse("report must be UTF-8")
	}
	v, err := parseJSON(raw)
	if err != nil {
		if errors.Is(err, errDuplicateKey) {
			return nil, refuse("%v", err)
		}
		return nil, refuse("report must be JSON: %v", err)
	}
	if v.kind != jObject {
		return nil, refuse("invalid planner report schema: the report is not a JSON object")
	}
	format, isInt := v.obj["format"]
	want := append([]string(nil), reportKeys...)
	if isInt && format.kind == jInt && format.num == "2" {
		want = append(want, formatTwoKeys...)
	}
	if missing, extra := keyDiff(v.obj, want); len(missing)+len(extra) > 0 {
		return nil, refuse("invalid planner report schema: keys differ from format's (missing %v, unexpected %v)", missing, extra)
	}
	r := &Report{File: file}
	if format.kind != jInt || (format.num != "1" && format.num != "2") {
		return nil, refuse("invalid planner report schema: format must be 1 or 2")
	}
	r.Format = int64(format.num[0] - '0')
	str := func(key string) (string, bool) {
		x := v.obj[key]
		return x.str, x.kind == jString
	}
	if k, ok := str("kind"); !ok || k != "art-planner-miss" {
		return nil, refuse(`invalid planner report schema: kind must be "art-planner-miss"`)
	}
	if r.ID, _ = str("id"); !reportID().MatchString(r.ID) {
		return nil, refuse("invalid planner report schema: id must be 32 lower-case hex digits")
	}
	for _, key := range []string{"oom", "replay_complete"} {
		if v.obj[key].kind != jBool {
			return nil, refuse("invalid planner report schema: %s must be a bool", key)
		}
	}
	r.OOM = v.obj["oom"].b
	reasons := v.obj["incomplete_reasons"]
	if reasons.kind != jArray {
		return nil, refuse("invalid planner report schema: incomplete_reasons must be a list of strings")
	}
	for _, x := range reasons.arr {
		if x.kind != jString {
			return nil, refuse("invalid planner report schema: incomplete_reasons must be a list of strings")
		}
	}
	var ok bool
	if r.Phase, ok = str("phase"); !ok {
		return nil, refuse("invalid planner report schema: phase must be a string")
	}
	at, ok := str("occurred_at")
	if !ok {
		return nil, refuse("invalid planner report schema: occurred_at must be a string")
	}
	if _, ok := str("replay_scope"); !ok {
		return nil, refuse("invalid planner report schema: replay_scope must be a string")
	}
	if rp := v.obj["replay"]; rp.kind != jNull && rp.kind != jObject {
		return nil, refuse("invalid planner report schema: replay must be an object or null")
	} else if rp.kind == jObject {
		r.replay = rp
	}
	if r.occurredAt, err = parseUTC(at); err != nil {
		return nil, refuse("%v", err)
	}
	for key, dst := range map[string]**int64{"predicted_peak_bytes": &r.Predicted, "admission_peak_bytes": &r.Admission,
		"observed_peak_bytes": &r.Observed, "partial_peak_bytes": &r.Partial} {
		x := v.obj[key]
		if x.kind == jNull {
			continue
		}
		n, ok := int64Of(x)
		if !ok || n < 0 {
			return nil, refuse("invalid report memory value: %s must be null or an integer 0..2^63-1", key)
		}
		*dst = &n
	}
	if r.Format == 2 {
		if r.Event, ok = str("event"); !ok || !eventName().MatchString(r.Event) {
			return nil, refuse("invalid planner event: event must be a lower-case name")
		}
	} else if r.OOM {
		r.Event = "oom"
	} else {
		r.Event = "estimate_miss"
	}
	if r.OOM != (r.Event == "oom") {
		return nil, refuse("invalid planner event: oom is %v but event is %q", r.OOM, r.Event)
	}
	planning := r.Event == "admission_refused" || r.Event == "planning_error"
	if r.Predicted == nil && !planning {
		return nil, refuse("missing prediction: predicted_peak_bytes is null for a %s", r.Event)
	}
	threshold := v.obj["threshold_pct"]
	if !finiteNonNegative(threshold) {
		return nil, refuse("invalid report percentage: threshold_pct must be a finite number >= 0")
	}
	errPct := v.obj["error_pct"]
	if errPct.kind != jNull {
		if !finiteNonNegative(errPct) {
			return nil, refuse("invalid report percentage: error_pct must be null or a finite number >= 0")
		}
		f, _ := numberRat(errPct).Float64()
		r.ErrorPct = &f
	}
	if r.OOM && (r.ErrorPct != nil || r.Observed != nil) {
		return nil, refuse("OOM cannot claim a completed observation (observed_peak_bytes and error_pct must be null)")
	}
	if planning && (r.Observed != nil || r.Partial != nil || r.ErrorPct != nil) {
		return nil, refuse("planning failure cannot claim an execution measurement")
	}
	if r.Event == "estimate_miss" {
		if r.Observed == nil || r.Partial != nil {
			return nil, refuse("ordinary miss requires a completed observation (observed_peak_bytes set, partial_peak_bytes null)")
		}
		if rule := checkMiss(*r.Predicted, *r.Observed, errPct, threshold); rule != "" {
			return nil, refuse("report percentage/threshold does not match measurements: %s", rule)
		}
	}
	canon, err := canonical(v)
	if err != nil {
		return nil, refuse("report must be canonical JSON: %v", err)
	}
	if string(canon) != string(raw) {
		return nil, refuse("report must be canonical JSON with a final newline (keys sorted, separators \",\" and \":\", ASCII escapes, as ART's _encode writes it)")
	}
	return r, nil
}

func keyDiff(obj map[string]*jsonValue, want []string) (missing, extra []string) {
	w := map[string]bool{}
	for _, k := range want {
		w[k] = true
		if _, ok := obj[k]; !ok {
			missing = append(missing, k)
		}
	}
	for k := range obj {
		if !w[k] {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	return missing, extra
}

// parseUTC reads an ISO 8601 time that carries an offset of zero.
func parseUTC(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999-07:00:00", "2006-01-02 15:04:05.999999999Z07:00"} {
		if t, err := time.Parse(layout, s); err == nil {
			if _, off := t.Zone(); off != 0 {
				return t, errors.New("report occurrence time must be UTC")
			}
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("report occurrence time must be UTC (ISO 8601 with an offset of zero): %s", clipQuote(s))
}

// int64Of is x's value when it is an integer within int64. A text longer
// than any int64 ("-" and 19 digits) is out of range without reading its
// digits.
func int64Of(x *jsonValue) (int64, bool) {
	if x.kind != jInt || len(x.num) > 20 {
		return 0, false
	}
	n, err := strconv.ParseInt(x.num, 10, 64)
	return n, err == nil
}

// numberRat is a JSON number's exact value: an integer as is, a float as
// the float64 Python reads. parseJSON keeps an integer within
// MaxIntDigits, so reading it costs little.
func numberRat(x *jsonValue) *big.Rat {
	if x.kind == jInt {
		n, _ := new(big.Int).SetString(x.num, 10)
		return new(big.Rat).SetInt(n)
	}
	f, err := parseFloat(x.num)
	if err != nil || math.IsInf(f, 0) {
		return new(big.Rat) // callers check finiteness first
	}
	return new(big.Rat).SetFloat64(f)
}

func finiteNonNegative(x *jsonValue) bool {
	switch x.kind {
	case jInt:
		return numberRat(x).Sign() >= 0
	case jFloat:
		f, err := parseFloat(x.num)
		return err == nil && !math.IsInf(f, 0) && f >= 0
	}
	return false
}

// parseFloat reads a JSON number as Python's float() does: correctly
// rounded; past the largest float64 it is infinite.
func parseFloat(s string) (float64, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) {
		return 0, err
	}
	return f, nil
}

// checkMiss checks error_pct and the threshold as Python compares them:
// error_pct must equal the correctly rounded float64 of 100 x |o - p| / p
// (None when p = 0), and |o - p| x 100 must exceed threshold x p (a float
// product when the threshold is a float). It returns the broken rule.
func checkMiss(predicted, observed int64, errPct, threshold *jsonValue) string {
	diff := new(big.Int).Sub(big.NewInt(observed), big.NewInt(predicted))
	diff.Abs(diff)
	if predicted == 0 {
		if errPct.kind != jNull {
			return "error_pct must be null when predicted_peak_bytes is 0"
		}
	} else {
		if errPct.kind == jNull {
			return "error_pct is null"
		}
		exact := new(big.Rat).SetFrac(new(big.Int).Mul(diff, big.NewInt(100)), big.NewInt(predicted))
		want, _ := exact.Float64()
		if numberRat(errPct).Cmp(new(big.Rat).SetFloat64(want)) != 0 {
			return fmt.Sprintf("error_pct is %s, 100 x |%d - %d| / %d is %s", clipNumber(errPct.num), observed, predicted, predicted, pyFloatRepr(want))
		}
	}
	lhs := new(big.Rat).SetInt(new(big.Int).Mul(diff, big.NewInt(100)))
	var rhs *big.Rat
	if threshold.kind == jInt {
		rhs = new(big.Rat).Mul(numberRat(threshold), new(big.Rat).SetInt64(predicted))
	} else {
		t, _ := parseFloat(threshold.num)
		p := t * float64(predicted)
		if math.IsInf(p, 0) {
			return "threshold_pct x predicted is infinite"
		}
		rhs = new(big.Rat).SetFloat64(p)
	}
	if lhs.Cmp(rhs) <= 0 {
		return fmt.Sprintf("|observed - predicted| x 100 = %s does not exceed threshold_pct x predicted", lhs.FloatString(0))
	}
	return ""
}
