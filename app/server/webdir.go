package server

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// FindWebDir returns the absolute path of the web/ directory the server
// serves: flagDir when given; otherwise web/ next to the executable (an
// installed binary carries its files), then the project root found by
// walking up from the working directory to the directory that holds both
// go.mod and web/ (make run, go run ./app, go test ./app). So `serve`
// works from any directory of the project.
func FindWebDir(flagDir string) (string, error) {
	if flagDir != "" {
		dir, err := filepath.Abs(flagDir)
		if err != nil {
			return "", fmt.Errorf("-web: %v", err)
		}
		if !isDir(dir) {
			return "", fmt.Errorf("-web: %s is not a directory", flagDir)
		}
		return dir, nil
	}
	if exe, err := os.Executable(); err == nil {
		if exe, err := filepath.EvalSymlinks(exe); err == nil {
			if dir := filepath.Join(filepath.Dir(exe), "web"); isDir(dir) {
				return dir, nil
			}
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", fmt.Errorf("finding web/: %v", err)
	}
	if root, ok := ProjectRoot(wd); ok {
		return filepath.Join(root, "web"), nil
	}
	return "", errors.New("no web/ directory next to the executable, nor in a directory above " +
		wd + " that holds go.mod; run from the project, or pass -web DIR")
}

// ProjectRoot walks up from dir to the first directory holding go.mod and
// a web/ directory.
func ProjectRoot(dir string) (string, bool) {
	for {
		if isFile(filepath.Join(dir, "go.mod")) && isDir(filepath.Join(dir, "web")) {
			return dir, true
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", false
		}
		dir = parent
	}
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}
