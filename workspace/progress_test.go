package workspace

import (
	"testing"
	"time"

	"github.com/racecase/racecase/runner"
)

func TestStepForRun(t *testing.T) {
	for _, c := range []struct {
		kind    string
		verdict runner.Verdict
		want    string
	}{
		{KindCheck, runner.VerdictFail, StepReproduced},
		{KindCheck, runner.VerdictPass, StepChecksPassed},
		{KindSubmit, runner.VerdictPass, StepSubmitted},
		{KindSubmit, runner.VerdictFail, ""},
		{KindCheck, runner.VerdictError, ""},
		{KindCheck, runner.VerdictTimeout, ""},
		{KindSubmit, runner.VerdictMemory, ""},
	} {
		if got := stepForRun(c.kind, c.verdict); got != c.want {
			t.Errorf("stepForRun(%s, %s) = %q, want %q", c.kind, c.verdict, got, c.want)
		}
	}
}

func TestDeriveProgress(t *testing.T) {
	created := time.Date(2026, 3, 14, 13, 0, 0, 0, time.UTC)
	now := created.Add(10 * time.Minute)

	fresh := deriveProgress(map[string]time.Time{}, created, now)
	if len(fresh.Steps) != 4 || fresh.Current != 1 || fresh.ElapsedSeconds != 600 || fresh.SolvedAt != nil {
		t.Fatalf("fresh workspace: %+v", fresh)
	}
	for i, want := range []string{"Reproduce the bug", "Edit the fix", "Pass checks", "Submit fix"} {
		if fresh.Steps[i].Title != want || fresh.Steps[i].Number != i+1 || fresh.Steps[i].Done {
			t.Errorf("step %d: %+v", i+1, fresh.Steps[i])
		}
	}

	// Steps are done in any order; the current step is the first open one.
	partial := deriveProgress(map[string]time.Time{StepEdited: created.Add(time.Minute)}, created, now)
	if partial.Current != 1 || !partial.Steps[1].Done || partial.Steps[0].Done {
		t.Fatalf("edited only: %+v", partial)
	}
	partial = deriveProgress(map[string]time.Time{StepReproduced: created, StepEdited: created}, created, now)
	if partial.Current != 3 {
		t.Fatalf("reproduced and edited: current %d, want 3", partial.Current)
	}

	// The timer stops when the fix is submitted.
	solvedAt := created.Add(5 * time.Minute)
	solved := deriveProgress(map[string]time.Time{
		StepReproduced: created, StepEdited: created, StepChecksPassed: created, StepSubmitted: solvedAt,
	}, created, now)
	if solved.Current != 0 || solved.SolvedAt == nil || !solved.SolvedAt.Equal(solvedAt) || solved.ElapsedSeconds != 300 {
		t.Fatalf("solved: %+v", solved)
	}
}
