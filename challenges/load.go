package challenges

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"

	"gopkg.in/yaml.v3"
)

// DossierFile is the name of the file that makes a folder a dossier.
const DossierFile = "dossier.yaml"

// slugPattern is the form of a slug (and so of a dossier folder name).
var slugPattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// ValidSlug reports whether s has the form of a slug: lowercase letters and
// digits in words joined by single hyphens, as dossier folders are named.
func ValidSlug(s string) bool { return slugPattern.MatchString(s) && len(s) <= 64 }

// Load reads the dossier in folder slug of fsys and checks it completely: the
// YAML against the schema, then every cross-reference and file it names. When
// anything is wrong the error is Problems listing every problem found. A slug
// with no dossier gives an error wrapping fs.ErrNotExist.
func Load(fsys fs.FS, slug string) (*Dossier, error) {
	if !ValidSlug(slug) {
		return nil, fmt.Errorf("challenges: invalid dossier slug %q", slug)
	}
	if _, err := fs.Stat(fsys, path.Join(slug, DossierFile)); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("challenges: dossier %q: %w", slug, fs.ErrNotExist)
		}
		return nil, fmt.Errorf("challenges: dossier %q: %w", slug, err)
	}
	d, ps := load(fsys, slug)
	if err := ps.err(); err != nil {
		return nil, err
	}
	return d, nil
}

// LoadAll loads every folder of fsys that holds a dossier.yaml, sorted by slug.
// It returns the dossiers that loaded cleanly and, if any did not, Problems
// listing every problem in all of them. Top-level folders without a
// dossier.yaml (other than schema and testdata) are reported too.
func LoadAll(fsys fs.FS) ([]*Dossier, error) {
	slugs, all, err := folders(fsys)
	if err != nil {
		return nil, err
	}
	var ds []*Dossier
	for _, slug := range slugs {
		d, ps := load(fsys, slug)
		if len(ps) > 0 {
			all = append(all, ps...)
			continue
		}
		ds = append(ds, d)
	}
	return ds, all.err()
}

// Slugs returns the names of the folders of fsys that hold a dossier.yaml,
// sorted: the dossiers LoadAll loads, whether or not they load cleanly.
func Slugs(fsys fs.FS) ([]string, error) {
	slugs, _, err := folders(fsys)
	return slugs, err
}

// folders lists the top-level content folders of fsys: the sorted names of
// those holding a dossier.yaml, and a problem for each that does not. schema,
// testdata and names starting with "." or "_" are not content.
func folders(fsys fs.FS) ([]string, Problems, error) {
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, nil, fmt.Errorf("challenges: list dossiers: %w", err)
	}
	var (
		slugs []string
		ps    Problems
	)
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || name == "schema" || name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			continue
		}
		if _, err := fs.Stat(fsys, path.Join(name, DossierFile)); err != nil {
			ps = append(ps, Problem{
				File:    path.Join(name, DossierFile),
				Message: "folder has no dossier.yaml",
				Fix:     "add dossier.yaml (check its spelling) or remove the folder",
			})
			continue
		}
		slugs = append(slugs, name)
	}
	return slugs, ps, nil
}

// load reads and checks the dossier in folder dir. It returns the dossier only
// when there are no problems.
func load(fsys fs.FS, dir string) (*Dossier, Problems) {
	file := path.Join(dir, DossierFile)
	c := &checker{fsys: fsys, dir: dir, file: file}

	// The folder layout is checked even when dossier.yaml is unreadable, so
	// that one run reports everything.
	c.checkFolders()

	data, err := fs.ReadFile(fsys, file)
	if err != nil {
		c.ps = append(c.ps, Problem{File: file, Message: err.Error()})
		return nil, c.ps
	}
	tree, perr := parseYAML(file, data)
	if perr != nil {
		c.ps = append(c.ps, *perr)
		return nil, c.ps
	}
	c.tree = tree

	before := len(c.ps)
	inst := tree.value(func(field string, line int) {
		c.ps = append(c.ps, Problem{File: file, Field: field, Line: line,
			Message: "duplicate field", Fix: "keep one of the two"})
	})
	schema, err := loadSchema()
	if err != nil {
		c.ps = append(c.ps, Problem{File: file, Message: err.Error()})
		return nil, c.ps
	}
	c.ps = append(c.ps, schema.validate(file, tree, inst)...)

	var d Dossier
	if err := tree.root.Decode(&d); err != nil && len(c.ps) == before {
		// The schema and the duplicate check should have caught everything the
		// decoder rejects; report what it saw rather than lose it.
		var terr *yaml.TypeError
		if errors.As(err, &terr) {
			for _, msg := range terr.Errors {
				c.ps = append(c.ps, Problem{File: file, Message: msg})
			}
		} else {
			c.ps = append(c.ps, Problem{File: file, Message: err.Error()})
		}
	}
	c.checkDossier(&d)
	if len(c.ps) > 0 {
		return nil, c.ps
	}
	d.RepoScale.MeaningfulFiles = len(c.repo)
	return &d, nil
}
