// Package assets holds the source files the binary embeds: the model
// presets of the explorer's menu. (Icons and seed texts are copied into
// web/ by the Makefile instead: the browser fetches them, the binary never
// reads them.)
//
// It imports only the standard library (embed), so that every package may
// import it.
package assets
