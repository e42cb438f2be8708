package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/racecase/racecase/authoring"
	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
)

// contentFlags are the --challenges and --hidden-tests flags of the commands
// that read dossiers.
type contentFlags struct {
	challenges, hidden *string
}

// addContentFlags defines --challenges (defaulting to dir; "" means the
// dossiers built into the binary) and --hidden-tests on flags.
func addContentFlags(flags *flag.FlagSet, dir string) *contentFlags {
	builtIn := ""
	if dir == "" {
		builtIn = " (default: the dossiers built into racecase)"
	}
	return &contentFlags{
		challenges: flags.String("challenges", dir, "folder of dossiers, one folder each"+builtIn),
		hidden:     flags.String("hidden-tests", "", "folder of hidden suites, <slug>/suite.mjs (default: hidden_tests beside --challenges)"),
	}
}

// dirs returns the on-disk folders the flags name.
func (c *contentFlags) dirs() authoring.Dirs {
	hidden := *c.hidden
	if hidden == "" {
		hidden = authoring.HiddenTestsBeside(*c.challenges)
	}
	return authoring.Dirs{Challenges: *c.challenges, HiddenTests: hidden}
}

// content is where dossiers and their hidden suites are read from.
type content struct {
	fsys fs.FS
	// suite returns a dossier's hidden suite as a run carries it (hiddentests.SuiteFrom).
	suite func(slug string) (map[string][]byte, error)
	// sources returns the suite's files as its author wrote them (hiddentests.SourcesFrom).
	sources func(slug string) (map[string][]byte, error)
	// suiteFile names a dossier's suite for an author: where to open it.
	suiteFile func(slug string) string
}

// open returns the content the flags name: the folders on disk, or the
// dossiers and suites built into the binary when --challenges is empty.
func (c *contentFlags) open() (content, error) {
	if *c.challenges == "" {
		if *c.hidden != "" {
			return content{}, errors.New("--hidden-tests goes with --challenges")
		}
		return content{fsys: challenges.FS, suite: hiddentests.Suite, sources: hiddentests.Sources, suiteFile: func(slug string) string {
			return path.Join("hidden_tests", slug, hiddentests.SuiteFile)
		}}, nil
	}
	dirs := c.dirs()
	if info, err := os.Stat(dirs.Challenges); err != nil || !info.IsDir() {
		return content{}, fmt.Errorf("--challenges %s is not a folder", dirs.Challenges)
	}
	hidden := os.DirFS(dirs.HiddenTests)
	return content{
		fsys: os.DirFS(dirs.Challenges),
		suite: func(slug string) (map[string][]byte, error) {
			files, err := hiddentests.SuiteFrom(hidden, slug)
			if err != nil {
				return nil, fmt.Errorf("%w in %s", err, dirs.HiddenTests)
			}
			return files, nil
		},
		sources: func(slug string) (map[string][]byte, error) {
			files, err := hiddentests.SourcesFrom(hidden, slug)
			if err != nil {
				return nil, fmt.Errorf("%w in %s", err, dirs.HiddenTests)
			}
			return files, nil
		},
		suiteFile: func(slug string) string {
			return path.Join(filepath.ToSlash(dirs.HiddenTests), slug, hiddentests.SuiteFile)
		},
	}, nil
}
