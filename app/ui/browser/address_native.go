//go:build !wasm

package browser

import "time"

// Outside the browser there is no address bar: the writes do nothing, and
// the clock is the process'.

// NowMs is the time in ms.
func NowMs() float64 { return float64(time.Now().UnixNano()) / 1e6 }

// ReplaceQuery does nothing: there is no address bar.
func ReplaceQuery(string) {}

// PushQuery does nothing: there is no history.
func PushQuery(string) {}

// Mark does nothing: there is no page timeline.
func Mark(string) {}
