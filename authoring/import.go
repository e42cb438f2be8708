package authoring

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/racecase/racecase/challenges"
)

// ErrNoDossier reports an import into a dossier that does not exist yet.
var ErrNoDossier = errors.New("no such dossier; scaffold it first with racecase new")

// ImportOptions says where a dossier's repository comes from.
type ImportOptions struct {
	// From is a git URL (cloned into memory) or the path of a local repository (read in place).
	From string
	// Ref is the commit, branch or tag to take; empty means the default branch (HEAD).
	Ref string
	// Path is the folder inside the repository to take; empty means its root.
	Path string
}

// Import replaces the repo/ folder of the dossier slug in challengesDir with
// the files of a git repository at a commit, and records where they came
// from in the dossier's source field. No git binary is needed.
//
// A dossier that does not exist gives ErrNoDossier; a source that cannot give
// the files asked for gives ErrBadSource, and then nothing is changed.
func Import(ctx context.Context, challengesDir, slug string, opts ImportOptions) (*challenges.Source, int, error) {
	if !challenges.ValidSlug(slug) {
		return nil, 0, fmt.Errorf("%q: %w", slug, ErrInvalidSlug)
	}
	dossierDir := filepath.Join(challengesDir, slug)
	yamlFile := filepath.Join(dossierDir, challenges.DossierFile)
	data, err := os.ReadFile(yamlFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, 0, fmt.Errorf("%s: %w", dossierDir, ErrNoDossier)
	}
	if err != nil {
		return nil, 0, err
	}
	sub, err := cleanSubfolder(opts.Path)
	if err != nil {
		return nil, 0, err
	}
	snap, err := readSource(ctx, opts.From, opts.Ref, sub)
	if err != nil {
		return nil, 0, err
	}
	src := &challenges.Source{URL: opts.From, Ref: opts.Ref, Commit: snap.commit, Path: sub}
	updated, err := withSource(data, *src)
	if err != nil {
		return nil, 0, err
	}
	if err := replaceFolder(filepath.Join(dossierDir, challenges.RepoDir), snap.files); err != nil {
		return nil, 0, err
	}
	if err := os.WriteFile(yamlFile, updated, 0o644); err != nil {
		return nil, 0, err
	}
	return src, len(snap.files), nil
}

// replaceFolder makes dir hold exactly files: they are written into a new
// folder beside it, which then takes its place.
func replaceFolder(dir string, files map[string][]byte) error {
	tmp, err := os.MkdirTemp(filepath.Dir(dir), ".import-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	for name, data := range files {
		if err := writeFile(filepath.Join(tmp, filepath.FromSlash(name)), data); err != nil {
			return err
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	return os.Rename(tmp, dir)
}
