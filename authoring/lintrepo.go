package authoring

import (
	"bytes"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"unicode/utf8"

	"github.com/racecase/racecase/challenges"
)

// secretNames are files that belong beside repo/, never inside it: learners
// get every file of repo/.
var secretNames = map[string]string{
	challenges.WhyFile:     "a decoy's explanation",
	"suite.mjs":            "a hidden suite",
	challenges.DossierFile: "a dossier, with its secret answer and hints",
}

// secretDirs are folders that must not be inside repo/, and why.
var secretDirs = map[string]string{
	".git":                 "git history, which can hold the fix",
	challenges.SolutionDir: "a reference fix",
	challenges.DecoysDir:   "decoys and why they fail",
	"hidden_tests":         "hidden tests",
}

// checkRepo reports secrets inside repo/ and files a learner's workspace
// cannot hold, and returns repo/'s files (nil when there is no repo/, which
// loading reports).
func (l *linter) checkRepo(slug string) map[string][]byte {
	root := path.Join(slug, challenges.RepoDir)
	repo := map[string][]byte{}
	err := fs.WalkDir(l.fsys, root, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if what, ok := secretDirs[e.Name()]; ok && e.IsDir() {
			l.add(p, "", fmt.Sprintf("repo/ holds %s, and learners get every file of repo/", what),
				"remove the folder from repo/")
			return fs.SkipDir
		}
		if !e.Type().IsRegular() {
			return nil // folders are walked; loading reports links and node_modules
		}
		if what, ok := secretNames[e.Name()]; ok {
			l.add(p, "", fmt.Sprintf("repo/ holds %s, and learners get every file of repo/", what),
				"move it out of repo/")
		}
		data, err := fs.ReadFile(l.fsys, p)
		if err != nil {
			return err
		}
		repo[p[len(root)+1:]] = data
		return nil
	})
	if err != nil {
		return nil
	}
	l.checkWorkspaceLimits(root, repo)
	l.checkFixCopies(slug, repo)
	return repo
}

// checkWorkspaceLimits reports repo/ files a learner's workspace cannot hold:
// binary or oversized files, or too much in all.
func (l *linter) checkWorkspaceLimits(root string, repo map[string][]byte) {
	total := 0
	for _, name := range slices.Sorted(maps.Keys(repo)) {
		data := repo[name]
		total += len(data)
		switch {
		case len(data) > challenges.MaxFileBytes:
			l.add(path.Join(root, name), "", fmt.Sprintf("%d bytes, over the %d-byte limit of one workspace file", len(data), challenges.MaxFileBytes),
				"shrink the file or leave it out of repo/")
		case !utf8.Valid(data):
			l.add(path.Join(root, name), "", "not UTF-8 text; a learner's workspace holds text files only",
				"leave binary files out of repo/")
		}
	}
	if total > challenges.MaxWorkspaceBytes {
		l.add(root, "", fmt.Sprintf("repo/ holds %d bytes, over the %d-byte limit of a workspace", total, challenges.MaxWorkspaceBytes),
			"trim repo/ to the code the incident needs")
	}
}

// checkFixCopies reports repo/ files that are copies of a file the reference
// fix changes: the answer, hidden in plain sight.
func (l *linter) checkFixCopies(slug string, repo map[string][]byte) {
	solution := l.solutionFiles(slug)
	for _, fixed := range slices.Sorted(maps.Keys(solution)) {
		fix := solution[fixed]
		if len(bytes.TrimSpace(fix)) == 0 || bytes.Equal(repo[fixed], fix) {
			continue
		}
		for _, name := range slices.Sorted(maps.Keys(repo)) {
			if bytes.Equal(repo[name], fix) {
				l.add(path.Join(slug, challenges.RepoDir, name), "",
					fmt.Sprintf("a copy of the reference fix's %s, and learners get every file of repo/", fixed),
					"remove it from repo/")
			}
		}
	}
}

// solutionFiles returns the reference fix's files by their repo/ path, as
// far as they can be read (loading reports an unreadable solution/).
func (l *linter) solutionFiles(slug string) map[string][]byte {
	solution := map[string][]byte{}
	root := path.Join(slug, challenges.SolutionDir)
	_ = fs.WalkDir(l.fsys, root, func(p string, e fs.DirEntry, err error) error {
		if err != nil || !e.Type().IsRegular() {
			return err
		}
		data, err := fs.ReadFile(l.fsys, p)
		solution[p[len(root)+1:]] = data
		return err
	})
	return solution
}
