package challenges

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
)

// Folder names inside a dossier folder.
const (
	RepoDir     = "repo"     // the learner's starting repository
	SolutionDir = "solution" // the reference fix, overlaying repo/
	DecoysDir   = "decoys"   // known non-fixes, one overlay folder each
	WhyFile     = "why.md"   // in a decoy folder: why it is not a fix; not overlaid
)

// Decoy is a plausible non-fix: the learner's repository with the decoy's
// files overlaid, and why the hidden tests must reject it.
type Decoy struct {
	// Name is the decoy's folder name under decoys/.
	Name string `json:"name"`
	// Why explains why it is not a fix (the decoy's why.md).
	Why string `json:"why"`
	// Files is the full file set: repo/ with the decoy overlaid, keyed by slash path.
	Files map[string][]byte `json:"-"`
}

// RepoFiles returns the learner's starting files (repo/), keyed by slash path.
func (d *Dossier) RepoFiles(fsys fs.FS) (map[string][]byte, error) {
	return readFiles(fsys, path.Join(d.Slug, RepoDir))
}

// SolutionFiles returns repo/ with the reference fix (solution/) overlaid.
func (d *Dossier) SolutionFiles(fsys fs.FS) (map[string][]byte, error) {
	return d.Overlay(fsys, SolutionDir)
}

// Overlay returns repo/ with the overlay folder name applied: "solution" or
// "decoys/<name>". A decoy's why.md is not part of the overlay.
func (d *Dossier) Overlay(fsys fs.FS, name string) (map[string][]byte, error) {
	if name != SolutionDir && !isDecoyDir(name) {
		return nil, fmt.Errorf("challenges: %q is not an overlay (want %q or %q)", name, SolutionDir, DecoysDir+"/<name>")
	}
	files, err := d.RepoFiles(fsys)
	if err != nil {
		return nil, err
	}
	over, err := readFiles(fsys, path.Join(d.Slug, name))
	if err != nil {
		return nil, err
	}
	if name != SolutionDir {
		delete(over, WhyFile)
	}
	maps.Copy(files, over)
	return files, nil
}

// Decoys returns every decoy, sorted by name, each with its full file set.
func (d *Dossier) Decoys(fsys fs.FS) ([]Decoy, error) {
	entries, err := fs.ReadDir(fsys, path.Join(d.Slug, DecoysDir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("challenges: %s decoys: %w", d.Slug, err)
	}
	var decoys []Decoy
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		dir := DecoysDir + "/" + e.Name()
		why, err := fs.ReadFile(fsys, path.Join(d.Slug, dir, WhyFile))
		if err != nil {
			return nil, fmt.Errorf("challenges: %s decoy %s: %w", d.Slug, e.Name(), err)
		}
		files, err := d.Overlay(fsys, dir)
		if err != nil {
			return nil, err
		}
		decoys = append(decoys, Decoy{Name: e.Name(), Why: string(why), Files: files})
	}
	slices.SortFunc(decoys, func(a, b Decoy) int { return strings.Compare(a.Name, b.Name) })
	return decoys, nil
}

// isDecoyDir reports whether name is "decoys/<one folder name>".
func isDecoyDir(name string) bool {
	rest, ok := strings.CutPrefix(name, DecoysDir+"/")
	return ok && rest != "" && fs.ValidPath(rest) && !strings.Contains(rest, "/")
}

// readFiles reads every regular file under root, keyed by path relative to root.
func readFiles(fsys fs.FS, root string) (map[string][]byte, error) {
	files, _, err := walkFiles(fsys, root)
	if err != nil {
		return nil, fmt.Errorf("challenges: read %s: %w", root, err)
	}
	return files, nil
}

// walkFiles reads every regular file under root, keyed by path relative to
// root. Entries that cannot be content (symlinks and other irregular files,
// node_modules folders) are skipped and returned as skipped paths relative to
// root. A missing root is an error wrapping fs.ErrNotExist.
func walkFiles(fsys fs.FS, root string) (files map[string][]byte, skipped []string, err error) {
	files = make(map[string][]byte)
	err = fs.WalkDir(fsys, root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		switch {
		case p == root && !e.IsDir():
			return fmt.Errorf("%s is not a folder", root)
		case e.IsDir() && e.Name() == "node_modules":
			skipped = append(skipped, rel)
			return fs.SkipDir
		case e.IsDir():
			return nil
		case !e.Type().IsRegular():
			skipped = append(skipped, rel)
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		files[rel] = data
		return nil
	})
	return files, skipped, err
}
