package storetest_test

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
	"github.com/racecase/racecase/store/storetest"
)

// eachEngine runs test once per engine, each on a fresh database.
func eachEngine(t *testing.T, test func(t *testing.T, d store.DB)) {
	for _, engine := range storetest.Engines(t) {
		t.Run(engine, func(t *testing.T) { test(t, storetest.Open(t, engine)) })
	}
}

// must fails the test on err.
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// workspace creates learner l and its workspace w.
func workspace(t *testing.T, d store.DB) {
	t.Helper()
	ctx := context.Background()
	must(t, d.CreateLearner(ctx, db.CreateLearnerParams{ID: "l", CreatedAt: 1}))
	must(t, d.CreateWorkspace(ctx, db.CreateWorkspaceParams{ID: "w", LearnerID: "l", Dossier: "x", CreatedAt: 1}))
}

func TestOneRunInFlightAndOneVerdict(t *testing.T) {
	eachEngine(t, func(t *testing.T, d store.DB) {
		ctx := context.Background()
		workspace(t, d)
		must(t, d.InsertRun(ctx, db.InsertRunParams{ID: "r1", WorkspaceID: "w", Kind: "check", Files: "{}", CreatedAt: 1}))
		err := d.InsertRun(ctx, db.InsertRunParams{ID: "r2", WorkspaceID: "w", Kind: "check", Files: "{}", CreatedAt: 2})
		if !store.IsUniqueViolation(err) {
			t.Fatalf("a second run in flight: %v", err)
		}
		row, err := d.StartRun(ctx, db.StartRunParams{StartedAt: ptr(int64(2)), ID: "r1"})
		if err != nil || row.Executions != 1 || row.WorkspaceID != "w" {
			t.Fatalf("start: %+v, %v", row, err)
		}
		verdict, results, at := "pass", "{}", int64(3)
		n, err := d.FinishRun(ctx, db.FinishRunParams{Verdict: &verdict, Results: &results, FinishedAt: &at, ID: "r1"})
		if err != nil || n != 1 {
			t.Fatalf("finish: %d, %v", n, err)
		}
		if n, _ := d.FinishRun(ctx, db.FinishRunParams{Verdict: &verdict, Results: &results, FinishedAt: &at, ID: "r1"}); n != 0 {
			t.Fatal("a second verdict was written")
		}
		if _, err := d.StartRun(ctx, db.StartRunParams{StartedAt: ptr(int64(4)), ID: "r1"}); !errors.Is(err, sql.ErrNoRows) {
			t.Fatalf("starting a run with a verdict: %v, want sql.ErrNoRows", err)
		}
		must(t, d.InsertRun(ctx, db.InsertRunParams{ID: "r2", WorkspaceID: "w", Kind: "check", Files: "{}", CreatedAt: 2}))
		if n, err := d.CountRunsInFlight(ctx); err != nil || n != 1 {
			t.Fatalf("runs in flight: %d, %v", n, err)
		}
	})
}

func TestTransactionsCommitOrRollBackWhole(t *testing.T) {
	eachEngine(t, func(t *testing.T, d store.DB) {
		ctx := context.Background()
		boom := errors.New("boom")
		err := d.InTx(ctx, func(tx store.Tx) error {
			must(t, tx.CreateLearner(ctx, db.CreateLearnerParams{ID: "gone", CreatedAt: 1}))
			return boom
		})
		if !errors.Is(err, boom) {
			t.Fatalf("InTx returned %v", err)
		}
		must(t, d.InTx(ctx, func(tx store.Tx) error {
			return tx.CreateLearner(ctx, db.CreateLearnerParams{ID: "kept", CreatedAt: 1})
		}))
		must(t, d.CreateWorkspace(ctx, db.CreateWorkspaceParams{ID: "w", LearnerID: "kept", Dossier: "x", CreatedAt: 1}))
		if err := d.CreateWorkspace(ctx, db.CreateWorkspaceParams{ID: "w2", LearnerID: "gone", Dossier: "x", CreatedAt: 1}); err == nil {
			t.Fatal("the rolled back learner exists")
		}
	})
}

func TestGitHeadMovesOnlyFromTheHeadNamed(t *testing.T) {
	eachEngine(t, func(t *testing.T, d store.DB) {
		ctx := context.Background()
		workspace(t, d)
		n, err := d.SetGitHead(ctx, db.SetGitHeadParams{Head: ptr("a"), ID: "w", Old: nil})
		if err != nil || n != 1 {
			t.Fatalf("from no head: %d, %v", n, err)
		}
		if n, _ := d.SetGitHead(ctx, db.SetGitHeadParams{Head: ptr("b"), ID: "w", Old: nil}); n != 0 {
			t.Fatal("moved from no head although the head is a")
		}
		if n, _ := d.SetGitHead(ctx, db.SetGitHeadParams{Head: ptr("b"), ID: "w", Old: ptr("a")}); n != 1 {
			t.Fatal("did not move from a")
		}
		ws, err := d.GetGitWorkspace(ctx, "w")
		if err != nil || ws.GitHead == nil || *ws.GitHead != "b" || ws.GitTokenGeneration != 1 {
			t.Fatalf("workspace: %+v, %v", ws, err)
		}
		must(t, d.InsertGitObject(ctx, db.InsertGitObjectParams{WorkspaceID: "w", Hash: "h", Type: "blob", Data: []byte{0, 1, 2}}))
		must(t, d.InsertGitObject(ctx, db.InsertGitObjectParams{WorkspaceID: "w", Hash: "h", Type: "blob", Data: []byte{0, 1, 2}}))
		objs, err := d.ListGitObjects(ctx, "w")
		if err != nil || len(objs) != 1 || string(objs[0].Data) != "\x00\x01\x02" {
			t.Fatalf("objects: %+v, %v", objs, err)
		}
	})
}

func TestFileHistoryIsPrunedByCountAndBytes(t *testing.T) {
	eachEngine(t, func(t *testing.T, d store.DB) {
		ctx := context.Background()
		workspace(t, d)
		must(t, d.InsertFile(ctx, db.InsertFileParams{WorkspaceID: "w", Path: "a.js", Content: "x", Size: 1, UpdatedAt: 1}))
		for v := int64(1); v <= 5; v++ {
			// "é" is two bytes: sizes are counted in bytes on both engines.
			must(t, d.InsertFileHistory(ctx, db.InsertFileHistoryParams{WorkspaceID: "w", Path: "a.js", Version: v,
				Content: strings.Repeat("é", 5), Cause: "push", ReplacedAt: v}))
		}
		c, err := d.CountFileHistory(ctx, db.CountFileHistoryParams{WorkspaceID: "w", Path: "a.js"})
		if err != nil || c.Count != 5 || c.Bytes != 50 {
			t.Fatalf("before pruning: %+v, %v", c, err)
		}
		must(t, d.PruneFileHistory(ctx, db.PruneFileHistoryParams{WorkspaceID: "w", Path: "a.js", MaxVersions: 4, MaxBytes: 30}))
		c, err = d.CountFileHistory(ctx, db.CountFileHistoryParams{WorkspaceID: "w", Path: "a.js"})
		if err != nil || c.Count != 3 || c.Bytes != 30 {
			t.Fatalf("after pruning to 4 versions and 30 bytes: %+v, %v", c, err)
		}
		size, err := d.WorkspaceSizeWithout(ctx, db.WorkspaceSizeWithoutParams{WorkspaceID: "w", Path: "other"})
		if err != nil || size != 1 {
			t.Fatalf("workspace size: %d, %v", size, err)
		}
	})
}

func TestSettingsAreGeneratedOnce(t *testing.T) {
	eachEngine(t, func(t *testing.T, d store.DB) {
		ctx := context.Background()
		must(t, d.InsertSettingIfAbsent(ctx, db.InsertSettingIfAbsentParams{Name: "k", Value: []byte("first")}))
		must(t, d.InsertSettingIfAbsent(ctx, db.InsertSettingIfAbsentParams{Name: "k", Value: []byte("second")}))
		v, err := d.GetSetting(ctx, "k")
		if err != nil || string(v) != "first" {
			t.Fatalf("setting: %q, %v", v, err)
		}
		if _, err := d.GetSetting(ctx, "absent"); !errors.Is(err, sql.ErrNoRows) {
			t.Fatalf("absent setting: %v, want sql.ErrNoRows", err)
		}
	})
}

func TestRunsArePrunedBeyondTheNewest(t *testing.T) {
	eachEngine(t, func(t *testing.T, d store.DB) {
		ctx := context.Background()
		workspace(t, d)
		verdict, results := "pass", "{}"
		for i := int64(1); i <= 4; i++ {
			id := "r" + string(rune('0'+i))
			must(t, d.InsertRun(ctx, db.InsertRunParams{ID: id, WorkspaceID: "w", Kind: "check", Files: "{}", CreatedAt: i}))
			must(t, d.InsertRunEvent(ctx, db.InsertRunEventParams{RunID: id, Status: "queued", At: i}))
			if _, err := d.FinishRun(ctx, db.FinishRunParams{Verdict: &verdict, Results: &results, FinishedAt: &i, ID: id}); err != nil {
				t.Fatal(err)
			}
		}
		over, err := d.ListWorkspacesOverRuns(ctx, db.ListWorkspacesOverRunsParams{After: "", Keep: 2, Batch: 10})
		if err != nil || len(over) != 1 || over[0] != "w" {
			t.Fatalf("workspaces over: %v, %v", over, err)
		}
		n, err := d.PruneWorkspaceRuns(ctx, db.PruneWorkspaceRunsParams{WorkspaceID: "w", Keep: 2})
		if err != nil || n != 2 {
			t.Fatalf("pruned %d, %v", n, err)
		}
		runs, err := d.ListRecentRuns(ctx, db.ListRecentRunsParams{WorkspaceID: "w", MaxRuns: 10})
		if err != nil || len(runs) != 2 || runs[0].ID != "r4" || runs[1].ID != "r3" {
			t.Fatalf("kept runs: %+v, %v", runs, err)
		}
		events, err := d.ListRunEvents(ctx, db.ListRunEventsParams{RunID: "r1", AfterID: 0})
		if err != nil || len(events) != 0 {
			t.Fatalf("events of a pruned run: %+v, %v", events, err)
		}
	})
}

func TestSolvedDossiersAreListedNewestFirst(t *testing.T) {
	eachEngine(t, func(t *testing.T, d store.DB) {
		ctx := context.Background()
		workspace(t, d)
		must(t, d.RecordProgress(ctx, db.RecordProgressParams{WorkspaceID: "w", Step: "submitted", At: 7}))
		must(t, d.RecordProgress(ctx, db.RecordProgressParams{WorkspaceID: "w", Step: "submitted", At: 9}))
		solved, err := d.ListSolvedDossiers(ctx, "l")
		if err != nil || len(solved) != 1 || solved[0].Dossier != "x" || solved[0].SolvedAt != 7 {
			t.Fatalf("solved: %+v, %v", solved, err)
		}
	})
}

func TestNotificationsReachEveryProcessOfASharedDatabase(t *testing.T) {
	url := storetest.FreshPostgres(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := openPostgres(t, url)
	b := openPostgres(t, url)
	got := make(chan string, 8)
	listening := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- b.Listen(ctx, func(id string) { got <- id }, func() {})
	}()
	// The listener may not be listening yet: notify until it hears.
	go func() {
		defer close(listening)
		for ctx.Err() == nil {
			if err := a.Notify(ctx, "r_1"); err != nil && ctx.Err() == nil {
				t.Error(err)
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(50 * time.Millisecond):
			}
		}
	}()
	if id := <-got; id != "r_1" {
		t.Fatalf("heard %q", id)
	}
	cancel()
	<-listening
	if err := <-done; err != nil {
		t.Fatalf("Listen after its context ended: %v", err)
	}
}

func ptr[T any](v T) *T { return &v }
