package page

import "headroom/estimator"

// MarkerHint says where the current value is when the chart's range
// leaves it out, so that its marker is not simply gone: dragging rows past
// a typed range left the marker off the chart with no word. It is "" when
// the value is inside the range, or the config is not valid.
func (s *State) MarkerHint() string {
	if !s.CfgOK || s.From > s.To {
		return ""
	}
	v := estimator.AxisValue(s.Axis, s.Cfg)
	where := ""
	switch {
	case v > s.To:
		where = "past the chart's end, " + estimator.Group(s.To)
	case v < s.From:
		where = "before the chart's start, " + estimator.Group(s.From)
	default:
		return ""
	}
	return s.Axis + " " + estimator.Group(v) + " is " + where + ", so its marker is off the chart; Fit range brings it in."
}
