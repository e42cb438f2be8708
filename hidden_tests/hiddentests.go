// Package hiddentests embeds the hidden concurrency tests and the JavaScript harness
// that runs them. Nothing in here is ever served to a learner: the harness is baked
// into the runner image, and a dossier's suite reaches only the container's
// supervisor, through the run's payload.
package hiddentests

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

//go:embed harness/*.mjs harness/worker/*.mjs harness/worker/runtime/*.js harness/PROTOCOL.md
var harnessFiles embed.FS

//go:embed */*.mjs
var suiteFiles embed.FS

// SuiteFile is the name under which a suite travels in a run's secret files.
const SuiteFile = "suite.mjs"

// Harness returns the harness files that go into the runner image, rooted at the
// harness directory (supervisor.mjs at the top).
func Harness() fs.FS {
	sub, err := fs.Sub(harnessFiles, "harness")
	if err != nil {
		panic(err) // the embed pattern guarantees the directory exists
	}
	return sub
}

// ErrNoSuite reports a dossier without hidden tests.
var ErrNoSuite = errors.New("no hidden suite")

// ErrBrokenSuite reports a suite whose files cannot travel as one module
// (Bundle): a file nothing imports, an import of a file that is not there,
// or files that import each other in a cycle.
var ErrBrokenSuite = errors.New("broken hidden suite")

// Suite returns the hidden suite of the dossier with the given slug, as the secret
// files of a hidden run.
func Suite(slug string) (map[string][]byte, error) {
	return SuiteFrom(suiteFiles, slug)
}

// SuiteFrom is Suite for hidden tests outside the binary: fsys is laid out
// like hidden_tests/, one <slug>/suite.mjs per dossier (for example
// os.DirFS of an instructor's own hidden_tests folder). A suite split into
// several files travels as one module (Bundle).
func SuiteFrom(fsys fs.FS, slug string) (map[string][]byte, error) {
	files, err := SourcesFrom(fsys, slug)
	if err != nil {
		return nil, err
	}
	bundled, err := Bundle(files)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %s", ErrBrokenSuite, slug, err)
	}
	return map[string][]byte{SuiteFile: bundled}, nil
}

// Sources returns the files of the built-in hidden suite of a dossier, as
// SourcesFrom does.
func Sources(slug string) (map[string][]byte, error) {
	return SourcesFrom(suiteFiles, slug)
}

// SourcesFrom returns the files of a dossier's hidden suite as an author
// wrote them: <slug>/suite.mjs and every other .mjs file beside it (the
// modules suite.mjs imports as './name.mjs'), by file name.
func SourcesFrom(fsys fs.FS, slug string) (map[string][]byte, error) {
	if slug == "" || strings.ContainsAny(slug, "/\\.") {
		return nil, fmt.Errorf("%w: invalid slug %q", ErrNoSuite, slug)
	}
	if _, err := fs.Stat(fsys, path.Join(slug, SuiteFile)); err != nil {
		return nil, fmt.Errorf("%w for %q: %s/%s is missing", ErrNoSuite, slug, slug, SuiteFile)
	}
	entries, err := fs.ReadDir(fsys, slug)
	if err != nil {
		return nil, fmt.Errorf("%w for %q: %s", ErrNoSuite, slug, err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || path.Ext(e.Name()) != ".mjs" {
			continue
		}
		data, err := fs.ReadFile(fsys, path.Join(slug, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("%w for %q: %s", ErrNoSuite, slug, err)
		}
		files[e.Name()] = data
	}
	return files, nil
}
