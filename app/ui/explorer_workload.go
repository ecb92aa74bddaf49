package ui

import (
	"fmt"
	"runtime/debug"

	"headroom/app/ui/workload"
	"headroom/estimator"
)

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
	if err := c.state.LoadShape(base, s, c.list); err != nil {
		return err
	}
	c.requestRender()
	return nil
}
