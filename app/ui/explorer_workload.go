package ui

import (
	"fmt"
	"runtime/debug"

	"headroom/app/ui/page"
	"headroom/app/ui/workload"
	"headroom/estimator"
	"headroom/estimator/urlquery"
)

// shapeKeys are the URL keys a workload line's shape sets (in_use_gib is
// the in-use field's typed text, which the line replaces).
var shapeKeys = []string{"rows", "sequence_rows", "projected_rows", "target_rows", "in_use_bytes", page.KeyInUseGiB}

// newWorkloadSink wires the Workload panel to c.
func (c *explorer) newWorkloadSink() *workload.Loader {
	return &workload.Loader{Load: c.loadShape}
}

// loadShape puts a workload line's shape into the explorer: the request
// and in-use fields become those the replay priced the line with
// (Shape.Config on base, the config the replay ran against), everything
// else stays as it is, and the state validates, renders and writes the
// address as after an edit.
func (c *explorer) loadShape(base estimator.Config, s estimator.Shape) (err error) {
	defer func() {
		if r := recover(); r != nil {
			c.fail("loading a workload line", r, debug.Stack())
			err = fmt.Errorf("the load failed: %v", r)
		}
	}()
	cfg, err := s.Config(base)
	if err != nil {
		return err
	}
	q := c.state.Query(c.list)
	want := urlquery.Encode(cfg)
	for _, k := range shapeKeys {
		q.Del(k)
		if v, ok := want[k]; ok {
			q[k] = v
		}
	}
	c.state = page.Decode(q, c.list)
	c.requestRender()
	return nil
}
