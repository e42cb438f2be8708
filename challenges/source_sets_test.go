package challenges_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
	"github.com/racecase/racecase/runner"
)

// reductionComparison is what hidden_tests/harness/compare-reductions.mjs
// prints: both explorations and the kinds of schedule only one of them found.
type reductionComparison struct {
	SleepSets  explorationKinds `json:"sleepSets"`
	SourceSets explorationKinds `json:"sourceSets"`
	Missing    []string         `json:"missing"`
	Extra      []string         `json:"extra"`
}

// explorationKinds summarises one exploration of a suite.
type explorationKinds struct {
	Status string `json:"status"`
	Kinds  int    `json:"kinds"`
	Twice  int    `json:"twice"`
}

// TestSourceSetsExploreEveryKindOfSchedule explores every dossier's hidden
// suite against its reference fix twice, with sleep sets alone and with source
// sets beside them, and fails when source sets leave out a kind of schedule
// (schedules that only swap independent steps are one kind) that sleep sets
// alone explore, explore one they do not, or explore one kind twice. Sleep
// sets alone explore every kind exactly once, so the two must match exactly;
// a reference passes, so neither stops at a counterexample.
//
// It runs with RACECASE_REDUCTION=all (`make reduction`): on two cores it
// takes minutes that `make test` cannot spare, and there the harness's own
// source-set tests compare both searches on schedules of every kind.
func TestSourceSetsExploreEveryKindOfSchedule(t *testing.T) {
	if os.Getenv("RACECASE_REDUCTION") != "all" {
		t.Skip("explores every dossier's reference twice: make reduction")
	}
	compare := harnessScript(t, "compare-reductions.mjs")
	forEachDossier(t, func(t *testing.T, d *challenges.Dossier) {
		solution, err := d.SolutionFiles(challenges.FS)
		if err != nil {
			t.Fatal(err)
		}
		suites := suiteDir(t, d)
		out, err := exec.Command("node", compare, writeTree(t, solution),
			filepath.Join(suites, hiddentests.SuiteFile), filepath.Join(suites, challenges.FaultModelFile)).Output()
		if err != nil {
			t.Fatalf("node compare-reductions.mjs: %v\n%s", err, out)
		}
		var c reductionComparison
		if err := json.Unmarshal(out, &c); err != nil {
			t.Fatalf("compare-reductions.mjs printed %q: %v", out, err)
		}
		for name, e := range map[string]explorationKinds{"sleep sets alone": c.SleepSets, "source sets": c.SourceSets} {
			if e.Status != string(runner.StatusPass) {
				t.Errorf("the reference is %s with %s", e.Status, name)
			}
			if e.Twice > 0 {
				t.Errorf("%s explored %d kinds of schedule more than once", name, e.Twice)
			}
		}
		for _, kind := range c.Missing {
			t.Errorf("source sets left out a kind of schedule: %.300s", kind)
		}
		for _, kind := range c.Extra {
			t.Errorf("source sets explored a kind of schedule sleep sets alone did not: %.300s", kind)
		}
		t.Logf("%d kinds of schedule, each explored once both ways", c.SleepSets.Kinds)
	})
}
