package workspace

import (
	"context"
	"encoding/json"

	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
)

// recordOutcome keeps what a finished run found, by test name, for the
// instructor's progress table and insights; unlike the run it is never pruned.
func recordOutcome(ctx context.Context, q store.Queries, run claimedRun, res *runner.Results, at int64) error {
	failed, passed := testsByStatus(res.Tests)
	f, _ := json.Marshal(failed)
	p, _ := json.Marshal(passed)
	if err := q.InsertRunOutcome(ctx, db.InsertRunOutcomeParams{RunID: run.id, WorkspaceID: run.workspaceID, Kind: run.kind,
		Verdict: string(res.Verdict), FailedTests: string(f), PassedTests: string(p), FinishedAt: at}); err != nil {
		return wrap(err, "record outcome of "+run.id)
	}
	return nil
}

// testsByStatus returns the names of the tests that failed and of those
// that passed, in the suite's order (never nil).
func testsByStatus(tests []runner.TestResult) (failed, passed []string) {
	failed, passed = []string{}, []string{}
	for _, t := range tests {
		switch t.Status {
		case runner.StatusFail:
			failed = append(failed, t.Name)
		case runner.StatusPass:
			passed = append(passed, t.Name)
		}
	}
	return failed, passed
}
