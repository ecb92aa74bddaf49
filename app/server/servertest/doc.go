// Package servertest builds what the server's tests and the browser tests
// serve: a web directory with a synthetic app.wasm and its compressed
// copies, and files the server must never serve; and what they ask of it:
// RawRequest sends a request line as written, WorkerVersion reads the
// version the service worker's cache is named after. Only tests import it.
//
// It imports only the standard library; never app/server itself, so that
// the server's own tests can use it.
package servertest
