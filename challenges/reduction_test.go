package challenges_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
	"github.com/racecase/racecase/runner"
)

// TestReductionKeepsVerdictsAndFirstCounterexamples runs every dossier's
// buggy repository (with RACECASE_REDUCTION=all, `make reduction`, also every
// decoy and generated mutant) with the
// explorer's reduction on and off (bare node), and fails when a test is
// decided differently or a failing test's first counterexample differs. The
// run without reduction explores only the scenarios where a test failed with
// it (the rest would only take long to say pass again); a test it leaves
// undecided because its budget ran out is not a difference, but every dossier
// must compare at least one counterexample in full.
func TestReductionKeepsVerdictsAndFirstCounterexamples(t *testing.T) {
	if testing.Short() {
		t.Skip("explores every dossier twice")
	}
	local := harnessScript(t, "local.mjs")
	forEachDossier(t, func(t *testing.T, d *challenges.Dossier) {
		suites := suiteDir(t, d)
		compared := 0
		for name, v := range reductionVariants(t, d) {
			compared += compareReduction(t, local, suites, name, v)
		}
		if compared == 0 {
			t.Errorf("no counterexample was compared: the run without reduction left every failing test undecided")
		}
		t.Logf("%d first counterexamples identical with the reduction on and off", compared)
	})
}

// harnessScript is the absolute path of a script of the hidden-test harness.
func harnessScript(t *testing.T, name string) string {
	t.Helper()
	path, err := filepath.Abs(filepath.Join("../hidden_tests/harness", name))
	if err != nil {
		t.Fatal(err)
	}
	return path
}

// forEachDossier runs fn on every dossier, each in a subtest named by its slug.
func forEachDossier(t *testing.T, fn func(t *testing.T, d *challenges.Dossier)) {
	t.Helper()
	slugs, err := challenges.Slugs(challenges.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, slug := range slugs {
		t.Run(slug, func(t *testing.T) {
			d, err := challenges.Load(challenges.FS, slug)
			if err != nil {
				t.Fatal(err)
			}
			fn(t, d)
		})
	}
}

// suiteDir writes a dossier's hidden suite and fault model into a fresh folder.
func suiteDir(t *testing.T, d *challenges.Dossier) string {
	t.Helper()
	hidden, err := hiddentests.Suite(d.Slug)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	model, err := json.Marshal(d.FaultModel.ForSuite())
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{hiddentests.SuiteFile: hidden[hiddentests.SuiteFile], challenges.FaultModelFile: model} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// variant is a wrong repository and the tests whose scenarios it is
// compared on (nil: all).
type variant struct {
	files map[string][]byte
	only  []string
}

// reductionVariants returns the wrong repositories of a dossier by name: the
// buggy one and, with RACECASE_REDUCTION=all, every decoy and mutant too
// (`make test` compares the buggy ones, about a minute and a half on 2 cores;
// a first decoy and mutant of each dossier more than tripled that). A decoy is
// compared on the tests its wrong turns name, as `racecase validate` proves it.
func reductionVariants(t *testing.T, d *challenges.Dossier) map[string]variant {
	t.Helper()
	repo, err := d.RepoFiles(challenges.FS)
	if err != nil {
		t.Fatal(err)
	}
	variants := map[string]variant{"buggy": {files: repo}}
	if os.Getenv("RACECASE_REDUCTION") != "all" {
		return variants
	}
	decoys, err := d.Decoys(challenges.FS)
	if err != nil {
		t.Fatal(err)
	}
	for _, decoy := range decoys {
		variants["decoy "+decoy.Name] = variant{files: decoy.Files, only: d.WrongTurnTests(decoy.Name)}
	}
	solution, err := d.SolutionFiles(challenges.FS)
	if err != nil {
		t.Fatal(err)
	}
	fix := map[string][]byte{}
	for name, data := range solution {
		if string(repo[name]) != string(data) {
			fix[name] = data
		}
	}
	mutants, err := challenges.GenerateMutants(repo, fix)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range mutants {
		files := map[string][]byte{}
		for name, data := range solution {
			files[name] = data
		}
		files[m.File] = m.Source
		variants["mutant "+m.ID] = variant{files: files}
	}
	return variants
}

// compareReduction runs one variant with the reduction on, then its failing
// scenarios with it off, and reports every difference; it returns how many
// counterexamples it compared in full.
func compareReduction(t *testing.T, local, suites, name string, v variant) int {
	t.Helper()
	repo := writeTree(t, v.files)
	suite := filepath.Join(suites, hiddentests.SuiteFile)
	var flags []string
	if v.only != nil {
		flags = append(flags, "--only", onlyTestsFile(t, v.only))
	}
	reduced := runLocal(t, name, local, repo, suite, suites, flags...)
	var failing []string
	for _, test := range reduced.Tests {
		if test.Status == runner.StatusFail {
			failing = append(failing, test.Name)
		}
	}
	if len(failing) == 0 {
		return 0
	}
	unreduced := runLocal(t, name, local, repo, suite, suites, "--no-reduction", "--only", onlyTestsFile(t, failing))
	compared := 0
	for _, off := range unreduced.Tests {
		i := slices.IndexFunc(reduced.Tests, func(r runner.TestResult) bool { return r.Name == off.Name })
		if i < 0 {
			t.Errorf("%s: %q ran without reduction only", name, off.Name)
			continue
		}
		on := reduced.Tests[i]
		switch {
		case off.Status == runner.StatusError && on.Status != runner.StatusError:
			// Left undecided by a budget the full exploration needs more of.
		case on.Status != off.Status:
			t.Errorf("%s: %q is %s with the reduction and %s without: %s", name, off.Name, on.Status, off.Status, off.Message)
		case on.Status == runner.StatusFail && (on.Message != off.Message || !sameTrace(on.Trace, off.Trace)):
			t.Errorf("%s: %q fails with a different first counterexample without the reduction:\n  with:    %s\n  without: %s", name, off.Name, on.Message, off.Message)
		case on.Status == runner.StatusFail:
			compared++
		}
	}
	return compared
}

// onlyTestsFile writes a list of test names for local.mjs's --only.
func onlyTestsFile(t *testing.T, names []string) string {
	t.Helper()
	data, _ := json.Marshal(names)
	file := filepath.Join(t.TempDir(), challenges.OnlyTestsFile)
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

// runLocal runs a hidden suite with bare node and decodes its results.
func runLocal(t *testing.T, name, local, repo, suite, suites string, flags ...string) *runner.Results {
	t.Helper()
	args := append([]string{local, "hidden"}, flags...)
	args = append(args, repo, suite, filepath.Join(suites, challenges.FaultModelFile))
	out, err := exec.Command("node", args...).Output()
	if err != nil {
		t.Fatalf("%s: node %v: %v\n%s", name, flags, err, out)
	}
	var res runner.Results
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%s: bare node printed %q: %v", name, out, err)
	}
	return &res
}

// sameTrace compares two traces step by step.
func sameTrace(a, b []runner.TraceStep) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
