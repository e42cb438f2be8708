package challenges

import (
	"fmt"
	"io"
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
// that name the file. Sizes are checked before a file is read, and no read
// takes more than the limit, so an oversized file costs no memory.
func ReadWorkspace(dir string) (map[string][]byte, error) {
	files := map[string][]byte{}
	var total int64
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
		info, err := d.Info()
		if err != nil {
			return err
		}
		if err := checkSizes(name, info.Size(), total); err != nil {
			return err
		}
		data, err := readAtMost(filepath.Join(dir, filepath.FromSlash(name)), MaxFileBytes)
		if err != nil {
			return err
		}
		if err := checkSizes(name, int64(len(data)), total); err != nil {
			return err // the file grew after it was measured
		}
		if !utf8.Valid(data) {
			return fmt.Errorf("%s: not UTF-8 text", name)
		}
		total += int64(len(data))
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

// checkSizes reports a file of size bytes that is over the limit for one
// file, or that would take the workspace, already total bytes, over its limit.
func checkSizes(name string, size, total int64) error {
	switch {
	case size > MaxFileBytes:
		return fmt.Errorf("%s: %d bytes, over the %d-byte limit for one file", name, size, MaxFileBytes)
	case total+size > MaxWorkspaceBytes:
		return fmt.Errorf("%s: with it the workspace would hold over %d bytes, its limit", name, MaxWorkspaceBytes)
	}
	return nil
}

// readAtMost reads a file, but never more than limit+1 bytes of it.
func readAtMost(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit+1))
}
