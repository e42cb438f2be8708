package authoring

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"time"

	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
	"github.com/racecase/racecase/runner"
)

// Report is what Lint found.
type Report struct {
	// Dossiers are the slugs checked, sorted.
	Dossiers []string
	// Problems are every problem found, sorted by file, line and field. Each
	// File is a slash-separated path on disk, under Dirs.Challenges or Dirs.HiddenTests.
	Problems challenges.Problems
	// Gaps are where a hidden suite's scenarios explore less (or more) of the
	// world than the dossier's fault model allows, sorted like Problems. They
	// are listed but do not fail lint yet: the built-in suites still have
	// some.
	Gaps challenges.Problems
	// Skeletons maps the slug of each dossier whose bug is not written yet to
	// the repo/ files that still carry challenges.SkeletonMarker. That is not a
	// problem, but validate fails until it is done.
	Skeletons map[string][]string
}

// Lint checks the dossiers named by slugs in dirs, or every dossier when none
// is named: everything loading checks (the JSON Schema, every file and id a
// dossier names, the folders and overlays), and also that the hidden suite
// exists, that repo/ holds no secret (solution, decoy or hidden-test files,
// git history) and fits a learner's workspace, that its visible check runs
// with npm test, that its playbook's links lead to dossiers and its searched
// text does not name the fix, and that no field the schema marks public
// gives the answer away.
//
// An error means the dossiers could not be listed, or a named slug is not a
// slug (ErrInvalidSlug) or has no dossier (wrapping fs.ErrNotExist); every
// problem with the content is in the Report.
func Lint(dirs Dirs, slugs []string) (*Report, error) {
	l := &linter{dirs: dirs, fsys: os.DirFS(dirs.Challenges), hidden: os.DirFS(dirs.HiddenTests)}
	loaded := map[string]*challenges.Dossier{}
	if len(slugs) == 0 {
		all, err := challenges.Slugs(l.fsys)
		if err != nil {
			return nil, err
		}
		ds, err := challenges.LoadAll(l.fsys)
		if err := l.loadProblems(err); err != nil {
			return nil, err
		}
		for _, d := range ds {
			loaded[d.Slug] = d
		}
		slugs = all
	} else {
		for _, slug := range slugs {
			if !challenges.ValidSlug(slug) {
				return nil, fmt.Errorf("%q: %w", slug, ErrInvalidSlug)
			}
			d, err := challenges.Load(l.fsys, slug)
			if errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("no dossier %q in %s: %w", slug, dirs.Challenges, fs.ErrNotExist)
			}
			if err := l.loadProblems(err); err != nil {
				return nil, err
			}
			loaded[slug] = d
		}
	}

	report := &Report{Dossiers: slugs, Skeletons: map[string][]string{}}
	known := l.knownSlugs()
	for _, slug := range slugs {
		l.checkWrongTurns(slug, loaded[slug])
		l.checkHidden(slug)
		repo := l.checkRepo(slug)
		if err := l.checkSuite(slug, loaded[slug], repo); err != nil {
			return nil, err
		}
		l.checkVisible(slug, repo, loaded[slug])
		if d := loaded[slug]; d != nil {
			l.checkFaultModelStated(slug, d, repo)
			l.checkPlaybook(slug, d, known, repo)
			l.checkPublicFields(slug, d)
		}
		if marked := challenges.SkeletonFiles(repo); len(marked) > 0 {
			report.Skeletons[slug] = marked
		}
	}
	report.Problems = l.ps.Sort()
	report.Gaps = l.gaps.Sort()
	return report, nil
}

// linter collects the problems of the dossiers in one dossier repository.
type linter struct {
	dirs   Dirs
	fsys   fs.FS // dirs.Challenges
	hidden fs.FS // dirs.HiddenTests
	ps     challenges.Problems
	gaps   challenges.Problems
}

// loadProblems keeps the problems of a load error, placed on disk, and
// returns any other error.
func (l *linter) loadProblems(err error) error {
	var ps challenges.Problems
	if !errors.As(err, &ps) {
		return err
	}
	for _, p := range ps {
		p.File = l.onDisk(p.File)
		l.ps = append(l.ps, p)
	}
	return nil
}

// add reports a problem with the file rel, a path inside the challenges folder.
func (l *linter) add(rel, field, msg, fix string) {
	l.ps = append(l.ps, challenges.Problem{File: l.onDisk(rel), Field: field, Message: msg, Fix: fix})
}

// onDisk turns a path inside the challenges folder into a path on disk.
func (l *linter) onDisk(rel string) string {
	return path.Join(filepath.ToSlash(l.dirs.Challenges), rel)
}

// checkSuite checks the hidden suite against the dossier's repository, as a
// hidden run would load it, its work budgets against the dossier's CPU-time
// limit and its scenarios against the fault model (SuiteProblems); a missing
// suite is checkHidden's.
func (l *linter) checkSuite(slug string, d *challenges.Dossier, repo map[string][]byte) error {
	files, err := hiddentests.SourcesFrom(l.hidden, slug)
	if err != nil || repo == nil || !bytes.Contains(files[hiddentests.SuiteFile], []byte("export default")) {
		return nil // checkHidden reports these
	}
	var (
		cpu   time.Duration
		model *challenges.FaultModel
	)
	if d != nil {
		cpu = d.Limits.RunnerLimits(runner.SuiteHidden).WithDefaults().CPU
		model = &d.FaultModel
	}
	found, err := SuiteProblems(context.Background(), path.Join(filepath.ToSlash(l.dirs.HiddenTests), slug), files, repo, cpu, model)
	if err != nil {
		return err
	}
	l.ps = append(l.ps, found.Problems...)
	l.gaps = append(l.gaps, found.Gaps...)
	return nil
}

// checkHidden reports a missing or empty hidden suite.
func (l *linter) checkHidden(slug string) {
	file := path.Join(filepath.ToSlash(l.dirs.HiddenTests), slug, hiddentests.SuiteFile)
	files, err := hiddentests.SourcesFrom(l.hidden, slug)
	switch {
	case err != nil:
		l.ps = append(l.ps, challenges.Problem{File: file, Message: "the dossier has no hidden suite",
			Fix: "write its hidden tests on the harness (hidden_tests/harness/SUITES.md); racecase new writes a starting suite"})
	case !bytes.Contains(files[hiddentests.SuiteFile], []byte("export default")):
		l.ps = append(l.ps, challenges.Problem{File: file, Message: "the suite has no default export",
			Fix: "export the suite object: export default { subject, effects, scenarios, … }"})
	}
}

// reported reports whether a problem with field of the file rel is already known.
func (l *linter) reported(rel, field string) bool {
	file := l.onDisk(rel)
	return slices.ContainsFunc(l.ps, func(p challenges.Problem) bool { return p.File == file && p.Field == field })
}
