package server

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"sync"
	"time"
)

// siteFile reports whether name, slash-separated and relative to web/, is
// one of the site's files: serve answers only these under /web/, and
// static copies only these. A name is refused when it is not a clean
// relative path, when any element is hidden (.env, .git/...) or an
// editor's leftover (notes.txt~, #notes.txt#), or when its extension is
// not one a page loads: a backup (.bak, .orig, .swp) or anything
// unexpected stays private. The compressed copies of app.wasm are named
// here too: serve sends them in place of app.wasm, static leaves them out
// (siteCopies).
func siteFile(name string) bool {
	if !fs.ValidPath(name) || name == "." || strings.ContainsAny(name, "\\\x00") {
		return false
	}
	for _, elem := range strings.Split(name, "/") {
		if strings.HasPrefix(elem, ".") || strings.HasPrefix(elem, "#") || strings.HasSuffix(elem, "~") {
			return false
		}
	}
	switch strings.ToLower(path.Ext(name)) {
	case ".wasm", ".css", ".js", ".png", ".svg", ".ico", ".txt", ".json", ".webmanifest", ".xml", ".woff2", ".html":
		return true
	case ".gz", ".br":
		return name == "app.wasm.gz" || name == "app.wasm.br"
	}
	return false
}

// isCompressedCopy reports whether name is one of app.wasm's compressed
// copies, which stand for app.wasm and are neither hashed nor copied.
func isCompressedCopy(name string) bool {
	return name == "app.wasm.gz" || name == "app.wasm.br"
}

// openSiteFile opens a regular site file of root by its slash-separated
// name. os.Root refuses anything that resolves outside root, symlinks
// included.
func openSiteFile(root *os.Root, name string) (*os.File, fs.FileInfo, bool) {
	if !siteFile(name) {
		return nil, nil, false
	}
	f, err := root.Open(name)
	if err != nil {
		return nil, nil, false
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, nil, false
	}
	return f, fi, true
}

// siteCopies lists, sorted, the names of the site files of root that a
// copy of the site holds: every file openSiteFile opens, except the
// compressed copies of app.wasm.
func siteCopies(root *os.Root) ([]string, error) {
	var names []string
	err := fs.WalkDir(root.FS(), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name != "." && (strings.HasPrefix(d.Name(), ".") || strings.HasPrefix(d.Name(), "#")) {
				return fs.SkipDir
			}
			return nil
		}
		if isCompressedCopy(name) {
			return nil
		}
		if f, _, ok := openSiteFile(root, name); ok {
			f.Close()
			names = append(names, name)
		}
		return nil
	})
	sort.Strings(names)
	return names, err
}

// fileSums caches the SHA-256 of web/'s files, by name, for as long as
// their size and modification time stay: the content version and the
// ETags of every file serve sends.
type fileSums struct {
	mu sync.Mutex
	m  map[string]fileSum
}

type fileSum struct {
	size int64
	mod  time.Time
	sum  string
}

// of returns the hex SHA-256 of f, the open file name with info fi,
// reading it only when its size or time changed since the last call.
func (c *fileSums) of(name string, f *os.File, fi fs.FileInfo) (string, error) {
	c.mu.Lock()
	if s, ok := c.m[name]; ok && s.size == fi.Size() && s.mod.Equal(fi.ModTime()) {
		c.mu.Unlock()
		return s.sum, nil
	}
	c.mu.Unlock()
	h := sha256.New()
	if _, err := io.Copy(h, io.NewSectionReader(f, 0, fi.Size())); err != nil {
		return "", err
	}
	sum := hex.EncodeToString(h.Sum(nil))
	c.mu.Lock()
	if c.m == nil {
		c.m = map[string]fileSum{}
	}
	c.m[name] = fileSum{fi.Size(), fi.ModTime(), sum}
	c.mu.Unlock()
	return sum, nil
}

// siteVersion is the site's content version: a hash of the name and bytes
// of app.wasm and every other site file (siteCopies). The service worker
// names its cache after it, so a new build, or any changed asset, is a new
// worker that caches the new files and drops the old ones.
func siteVersion(root *os.Root, sums *fileSums) (string, error) {
	names, err := siteCopies(root)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	for _, name := range names {
		f, fi, ok := openSiteFile(root, name)
		if !ok {
			continue // removed meanwhile
		}
		sum, err := sums.of(name, f, fi)
		f.Close()
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%s\n", name, sum)
	}
	return hex.EncodeToString(h.Sum(nil))[:20], nil
}
