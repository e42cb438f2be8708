package instructor

import (
	"fmt"
	"os"

	"github.com/racecase/racecase/authoring"
	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
)

// Suites returns where each dossier's hidden suite is read from: the built-in
// dossiers' from racecase, every other one's from dirs.HiddenTests.
func Suites(builtIn []*challenges.Dossier, dirs authoring.Dirs) func(slug string) (map[string][]byte, error) {
	own := map[string]bool{}
	for _, d := range builtIn {
		own[d.Slug] = true
	}
	return func(slug string) (map[string][]byte, error) {
		if own[slug] || dirs.HiddenTests == "" {
			return hiddentests.Suite(slug)
		}
		files, err := hiddentests.SuiteFrom(os.DirFS(dirs.HiddenTests), slug)
		if err != nil {
			return nil, fmt.Errorf("%w in %s", err, dirs.HiddenTests)
		}
		return files, nil
	}
}
