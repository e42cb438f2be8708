package challenges

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
)

// Files every learner repository must have.
var requiredRepoFiles = []string{"package.json", "README.md"}

// checkFolders checks repo/, solution/ and decoys/ and keeps their files in the
// checker for the checks that need dossier.yaml (read-only files, paths).
func (c *checker) checkFolders() {
	c.repo = c.readFolder(RepoDir, "create repo/ with the learner's starting repository")
	if c.repo != nil {
		for _, name := range requiredRepoFiles {
			if _, ok := c.repo[name]; !ok {
				c.inFile(path.Join(c.dir, RepoDir, name), "missing from the learner's repository",
					fmt.Sprintf("add repo/%s", name))
			}
		}
		if len(c.repo) == 0 {
			c.inFile(path.Join(c.dir, RepoDir), "repo/ has no files", "add the learner's starting repository")
		}
	}

	c.overlays = map[string]map[string][]byte{}
	if sol := c.readFolder(SolutionDir, "create solution/ with the files of the reference fix"); sol != nil {
		if len(sol) == 0 {
			c.inFile(path.Join(c.dir, SolutionDir), "solution/ has no files",
				"add the files of the reference fix, at their paths inside repo/")
		} else {
			c.overlays[SolutionDir] = sol
		}
	}

	entries, err := fs.ReadDir(c.fsys, path.Join(c.dir, DecoysDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		c.inFile(path.Join(c.dir, DecoysDir), err.Error(), "")
	}
	for _, e := range entries {
		dir := DecoysDir + "/" + e.Name()
		where := path.Join(c.dir, dir)
		if !e.IsDir() {
			c.inFile(where, "decoys/ may hold only folders", "move it into a decoy folder, decoys/<name>/")
			continue
		}
		files := c.readFolder(dir, "")
		why, ok := files[WhyFile]
		delete(files, WhyFile)
		switch {
		case !ok:
			c.inFile(path.Join(where, WhyFile), "decoy has no why.md",
				"add why.md saying why this change is not a fix and what the hidden tests catch")
		case len(bytes.TrimSpace(why)) == 0:
			c.inFile(path.Join(where, WhyFile), "why.md is empty",
				"say why this change is not a fix and what the hidden tests catch")
		}
		if len(files) == 0 {
			c.inFile(where, "decoy has no files to overlay",
				"add the decoy's changed files at their paths inside repo/")
			continue
		}
		c.overlays[dir] = files
	}

	for _, name := range slices.Sorted(maps.Keys(c.overlays)) {
		c.checkOverlay(name, c.overlays[name])
	}
}

// readFolder reads the files of a folder inside the dossier folder, reporting
// a missing folder (when missingFix is not empty) and entries that cannot be
// content. It returns nil when the folder cannot be read.
func (c *checker) readFolder(name, missingFix string) map[string][]byte {
	root := path.Join(c.dir, name)
	files, skipped, err := walkFiles(c.fsys, root)
	for _, s := range skipped {
		c.inFile(path.Join(root, s), "not a regular file or folder (symlink, device or node_modules)",
			"remove it: dossier content is plain files only")
	}
	if errors.Is(err, fs.ErrNotExist) {
		if missingFix != "" {
			c.inFile(root, fmt.Sprintf("missing %s/ folder", name), missingFix)
		}
		return nil
	}
	if err != nil {
		c.inFile(root, err.Error(), "")
		return nil
	}
	return files
}

// checkOverlay checks that an overlay fits repo/: it neither replaces a folder
// with a file nor puts a file under a file, and it changes something.
func (c *checker) checkOverlay(name string, files map[string][]byte) {
	if c.repo == nil {
		return
	}
	changed := false
	for _, p := range slices.Sorted(maps.Keys(files)) {
		where := path.Join(c.dir, name, p)
		if old, ok := c.repo[p]; !ok || !bytes.Equal(old, files[p]) {
			changed = true
		}
		for q := range c.repo {
			if strings.HasPrefix(q, p+"/") {
				c.inFile(where, fmt.Sprintf("overlay file replaces the folder repo/%s", p),
					"overlay files, not folders: put the changed files at their paths inside repo/")
				break
			}
		}
		for dir := path.Dir(p); dir != "."; dir = path.Dir(dir) {
			if _, ok := c.repo[dir]; ok {
				c.inFile(where, fmt.Sprintf("repo/%s is a file, so nothing can be overlaid under it", dir),
					"fix the overlay path")
				break
			}
		}
	}
	if !changed {
		c.inFile(path.Join(c.dir, name), fmt.Sprintf("%s/ changes nothing: every file equals repo/", name),
			"put the changed files in the overlay")
	}
}
