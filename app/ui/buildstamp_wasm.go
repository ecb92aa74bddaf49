//go:build wasm

package ui

import "syscall/js"

// buildStamp names the build the page runs, as window.headroomBuild:
// "dev" unless the build sets it (-ldflags
// "-X headroom/app/ui.buildStamp=..."). The browser test of the service
// worker's update tells two builds apart by it (app/e2e/e2e_update_test.go).
var buildStamp = "dev"

func init() { js.Global().Set("headroomBuild", buildStamp) }
