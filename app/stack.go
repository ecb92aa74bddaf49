package main

import "runtime/debug"

// stack is the current goroutine's stack, for the error banner's details.
func stack() []byte { return debug.Stack() }
