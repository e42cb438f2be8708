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

//go:embed */suite.mjs
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

// Suite returns the hidden suite of the dossier with the given slug, as the secret
// files of a hidden run.
func Suite(slug string) (map[string][]byte, error) {
	return SuiteFrom(suiteFiles, slug)
}

// SuiteFrom is Suite for hidden tests outside the binary: fsys is laid out
// like hidden_tests/, one <slug>/suite.mjs per dossier (for example
// os.DirFS of an instructor's own hidden_tests folder).
func SuiteFrom(fsys fs.FS, slug string) (map[string][]byte, error) {
	if slug == "" || strings.ContainsAny(slug, "/\\.") {
		return nil, fmt.Errorf("%w: invalid slug %q", ErrNoSuite, slug)
	}
	data, err := fs.ReadFile(fsys, path.Join(slug, SuiteFile))
	if err != nil {
		return nil, fmt.Errorf("%w for %q: %s/%s is missing", ErrNoSuite, slug, slug, SuiteFile)
	}
	return map[string][]byte{SuiteFile: data}, nil
}
