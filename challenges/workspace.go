package challenges

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"
)

// Workspace size limits: what a learner's repository may hold.
const (
	MaxFileBytes      = 256 << 10 // one file
	MaxWorkspaceBytes = 2 << 20   // all files together
)

// skippedDirs are folders a workspace never ships: they are tool state, not code.
var skippedDirs = map[string]bool{".git": true, "node_modules": true}

// ReadWorkspace reads a directory on disk as a learner's repository: every
// regular UTF-8 text file, keyed by slash path, leaving out .git and
// node_modules. Symbolic links, binary files and oversized files are errors
// that name the file.
func ReadWorkspace(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	total := 0
	err := fs.WalkDir(os.DirFS(dir), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if skippedDirs[d.Name()] {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("%s: not a regular file (symbolic links are not allowed)", name)
		}
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil {
			return err
		}
		switch {
		case len(data) > MaxFileBytes:
			return fmt.Errorf("%s: %d bytes, over the %d-byte limit for one file", name, len(data), MaxFileBytes)
		case !utf8.Valid(data):
			return fmt.Errorf("%s: not UTF-8 text", name)
		}
		total += len(data)
		if total > MaxWorkspaceBytes {
			return fmt.Errorf("%s: the workspace exceeds %d bytes", dir, MaxWorkspaceBytes)
		}
		files[name] = data
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("reading workspace: %w", err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("reading workspace: %s holds no files", dir)
	}
	return files, nil
}
