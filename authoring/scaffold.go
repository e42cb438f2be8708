package authoring

import (
	"bytes"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
)

// skeleton holds the templates of new dossiers, one folder a layer (see
// Class): a layer's dossier/ becomes the dossier's folder and its hidden/ its
// hidden tests folder, with slugPlaceholder replaced.
//
//go:embed all:skeleton
var skeleton embed.FS

// slugPlaceholder stands for the new dossier's slug in the skeleton's files.
const slugPlaceholder = "{{slug}}"

// schemaPath is where New publishes the dossier JSON Schema for editors,
// relative to the challenges folder; dossier.yaml's yaml-language-server
// comment points there.
const schemaPath = "schema/dossier.schema.json"

// ErrInvalidSlug reports a slug that cannot name a dossier.
var ErrInvalidSlug = errors.New("invalid slug: use lowercase letters and digits in words joined by single hyphens, at most 64 characters")

// New writes a skeleton dossier named slug: dirs.Challenges/<slug>/ with a
// commented dossier.yaml, evidence, repo/ (README with its fault model,
// package.json, src/, a visible test and the virtual time it runs on),
// solution/ and one decoy, and dirs.HiddenTests/<slug>/suite.mjs on the
// harness. It also publishes the JSON Schema at dirs.Challenges/schema/ when
// none is there.
//
// The skeleton passes Lint at once. Its repo/ is still correct, so Prove
// reports that the buggy repository passes, naming the file where the bug is
// to be written (see challenges.SkeletonMarker). New overwrites nothing: an
// existing dossier or suite gives an error wrapping fs.ErrExist. It returns
// the files it wrote.
func New(dirs Dirs, slug string) ([]string, error) {
	return writeLayers(dirs, slug, defaultLayers)
}

// NewOfClass writes the example dossier of class c named slug, laid out as
// New lays out the skeleton. Unlike New's skeleton, its repo/ holds the bug,
// so it passes both Lint and Prove at once; its decoys are the class's usual
// non-fixes. It overwrites nothing, as New, and returns the files it wrote.
func NewOfClass(dirs Dirs, slug string, c Class) ([]string, error) {
	return writeLayers(dirs, slug, c.layers)
}

// commonLayer is the skeleton layer under every dossier's own layers: what
// every class's repository shares, such as the visible tests' virtual time.
const commonLayer = "skeleton/common"

// writeLayers writes the dossier slug made of commonLayer and then the
// skeleton layers.
func writeLayers(dirs Dirs, slug string, layers []string) ([]string, error) {
	if !challenges.ValidSlug(slug) {
		return nil, fmt.Errorf("%q: %w", slug, ErrInvalidSlug)
	}
	files := map[string][]byte{}
	for _, layer := range append([]string{commonLayer}, layers...) {
		if err := renderLayer(files, dirs, slug, layer); err != nil {
			return nil, err
		}
	}
	for _, target := range []string{filepath.Join(dirs.Challenges, slug), filepath.Join(dirs.HiddenTests, slug, hiddentests.SuiteFile)} {
		if _, err := os.Lstat(target); err == nil {
			return nil, fmt.Errorf("%s: %w; choose another slug or remove it", target, fs.ErrExist)
		}
	}
	schema := filepath.Join(dirs.Challenges, filepath.FromSlash(schemaPath))
	if _, err := os.Stat(schema); errors.Is(err, fs.ErrNotExist) {
		files[schema] = challenges.SchemaJSON()
	}

	var written []string
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if err := writeFile(name, files[name]); err != nil {
			return written, err
		}
		written = append(written, name)
	}
	return written, nil
}

// renderLayer renders one skeleton layer for slug into files, keyed by target
// path on disk: its dossier/ becomes the dossier's folder and its hidden/ the
// suite's, each file replacing what an earlier layer put at its path.
func renderLayer(files map[string][]byte, dirs Dirs, slug, layer string) error {
	targets := map[string]string{
		layer + "/dossier": filepath.Join(dirs.Challenges, slug),
		layer + "/hidden":  filepath.Join(dirs.HiddenTests, slug),
	}
	for root, target := range targets {
		if _, err := fs.Stat(skeleton, root); errors.Is(err, fs.ErrNotExist) {
			continue // a layer may change only the dossier, or only the suite
		}
		err := fs.WalkDir(skeleton, root, func(p string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() {
				return err
			}
			data, err := fs.ReadFile(skeleton, p)
			if err != nil {
				return err
			}
			rel := strings.TrimPrefix(p, root+"/")
			files[filepath.Join(target, filepath.FromSlash(rel))] = bytes.ReplaceAll(data, []byte(slugPlaceholder), []byte(slug))
			return nil
		})
		if err != nil {
			return fmt.Errorf("authoring: skeleton %s: %w", path.Base(root), err)
		}
	}
	return nil
}

// writeFile writes data to name, creating its folders.
func writeFile(name string, data []byte) error {
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	return os.WriteFile(name, data, 0o644)
}
