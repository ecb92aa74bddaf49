package assets

import "embed"

// Presets holds presets/*.json, one model preset per file: a name, a
// source line and a config in the interchange format.
//
//go:embed presets/*.json
var Presets embed.FS
