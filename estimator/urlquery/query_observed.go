package urlquery

import (
	"headroom/estimator"
	"net/url"
	"strconv"
	"strings"
)

// Observed points travel in a URL as repeated values of one key, in the
// config's order, each "rows~peak_bytes~label" with the integers in plain
// decimal ("obs=64902~94780217856~cold+forward&obs=33706~88242250580"):
// the label may hold "~" (only the first two separate), and an empty label
// leaves out its separator. A config without points writes no obs key, so
// the links of configs without points are as they were.

// ObservedKey is the URL key of the observed points.
const ObservedKey = "obs"

// encodeObserved adds the points of c to q.
func encodeObserved(q url.Values, points []estimator.ObservedPoint) {
	for _, p := range points {
		v := strconv.FormatInt(p.Rows, 10) + "~" + strconv.FormatInt(p.PeakBytes, 10)
		if p.Label != "" {
			v += "~" + p.Label
		}
		q.Add(ObservedKey, v)
	}
}

// decodeObservedQuery reads the obs values of q. A value that does not
// parse, or whose point is out of range, is reported (naming the point,
// observed[i] by its place in the link) and left out; beyond
// estimator.MaxObserved points the rest are reported and left out, so the points
// returned always validate.
func decodeObservedQuery(q url.Values) ([]estimator.ObservedPoint, estimator.ErrorList) {
	var points []estimator.ObservedPoint
	var errs estimator.ErrorList
	for i, v := range q[ObservedKey] {
		if len(points) == estimator.MaxObserved {
			errs = append(errs, &estimator.Error{Field: "observed", Message: "must hold at most " + estimator.Group(estimator.MaxObserved) + " points, got " + estimator.Group(int64(len(q[ObservedKey]))) + "; the points after the " + estimator.Group(estimator.MaxObserved) + "th are left out"})
			break
		}
		parts := strings.SplitN(v, "~", 3)
		if len(parts) < 2 {
			errs = append(errs, &estimator.Error{Field: estimator.ObservedField(i, ""), Message: "must be rows~peak_bytes~label, got " + quote(v)})
			continue
		}
		var p estimator.ObservedPoint
		var bad bool
		for k, dst := range []*int64{&p.Rows, &p.PeakBytes} {
			n, err := strconv.ParseInt(parts[k], 10, 64)
			if err != nil {
				name := [2]string{"rows", "peak_bytes"}[k]
				errs = append(errs, &estimator.Error{Field: estimator.ObservedField(i, name), Message: "must be a decimal integer, got " + quote(parts[k])})
				bad = true
			}
			*dst = n
		}
		if len(parts) == 3 {
			p.Label = parts[2]
		}
		if bad {
			continue
		}
		if more := estimator.CheckObserved([]estimator.ObservedPoint{p}); len(more) > 0 {
			for _, e := range more { // checkObserved names the point observed[0]
				errs = append(errs, &estimator.Error{Field: estimator.ObservedField(i, strings.TrimPrefix(e.Field, "observed[0].")), Message: e.Message})
			}
			continue
		}
		points = append(points, p)
	}
	return points, errs
}
