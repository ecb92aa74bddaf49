//go:build bench && !wasm

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBenchFloor prints app.wasm's bytes over go-app's floor, both as
// brotli -q 11 (the floor: make floor's build of internal/tools/floor
// with app.wasm's toolchain, tags and flags).
//
//	make floor && go test -tags bench -run '^TestBenchFloor$' -v ./app/e2e -args -bench.floor=$PWD/bin/floor.wasm.br
func TestBenchFloor(t *testing.T) {
	if *benchFloor == "" {
		t.Fatal("-bench.floor names the floor's brotli file (make floor builds bin/floor.wasm.br)")
	}
	web := benchWebDir(t)
	size := func(p string) int64 {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	floorBr, floorRaw := size(*benchFloor), size(strings.TrimSuffix(*benchFloor, ".br"))
	appBr, appRaw := size(filepath.Join(web, "app.wasm.br")), size(filepath.Join(web, "app.wasm"))
	t.Logf("floor: %d bytes raw, %d brotli; app.wasm: %d raw, %d brotli; Headroom's own on the wire: %d bytes", floorRaw, floorBr, appRaw, appBr, appBr-floorBr)
	appendFigure(t, figure{"floor_wasm_brotli_bytes", float64(floorBr), "bytes"}.String()+"\n"+
		figure{"app_wasm_brotli_bytes", float64(appBr), "bytes"}.String()+"\n"+
		figure{"app_wasm_over_floor", round(float64(appBr)/float64(floorBr), 2), "x"}.String()+"\n")
}
