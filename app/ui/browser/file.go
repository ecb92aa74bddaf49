package browser

import "strings"

// File is a file the page offers for download.
type File struct {
	Name string // FileName's: qwen3-next-80b-a3b_rows.csv
	Mime string
	Data []byte // for a PNG, the SVG to draw at Width x Height pixels
	// Width and Height are the PNG's size in pixels; zero for the other
	// formats, which need no drawing in the browser.
	Width, Height int
}

// FileName is a file name for an export: the preset and axis, e.g.
// "qwen3-next-80b-a3b_rows.csv".
func FileName(preset, axis, ext string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(preset) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9', r == '.':
			b.WriteRune(r)
		default:
			if s := b.String(); s != "" && !strings.HasSuffix(s, "-") {
				b.WriteByte('-')
			}
		}
	}
	name := strings.Trim(b.String(), "-.")
	if name == "" {
		name = "headroom"
	}
	return name + "_" + axis + "." + ext
}
