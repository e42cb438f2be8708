package workspace

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/racecase/racecase/store/sqlite/db"
)

func TestWorkspacesPerLearnerAreCapped(t *testing.T) {
	svc := newTestService(t, nil, 0)
	svc.cfg.MaxWorkspaces = 2
	learner, _ := newWorkspace(t, svc)
	ctx := context.Background()
	if _, err := svc.Create(ctx, learner, flagship); err != nil {
		t.Fatal(err)
	}
	_, err := svc.Create(ctx, learner, flagship)
	if e := wantCode(t, err, EQUOTA); e.Data["limit"] != 2 {
		t.Errorf("quota error data %v", e.Data)
	}
	if list, _ := svc.List(ctx, learner); len(list) != 2 {
		t.Errorf("%d workspaces after the refusal", len(list))
	}
	other, _ := svc.NewLearner(ctx)
	if _, err := svc.Create(ctx, other, flagship); err != nil {
		t.Errorf("another learner: %v", err)
	}
}

func TestFileHistoryIsKeptByCountAndBytes(t *testing.T) {
	for _, c := range []struct {
		versions  int
		bytes     int64
		wantCount int64
	}{
		{versions: 3, bytes: 1 << 20, wantCount: 3},
		{versions: 50, bytes: 250, wantCount: 2}, // 100-byte versions: two fit in 250 bytes
	} {
		svc := newTestService(t, nil, 0)
		svc.cfg.HistoryVersions, svc.cfg.HistoryBytes = c.versions, c.bytes
		learner, v := newWorkspace(t, svc)
		ctx := context.Background()
		const path = "src/locks/job-lock.js"
		f, err := svc.ReadFile(ctx, learner, v.ID, path)
		if err != nil {
			t.Fatal(err)
		}
		for i := range 8 {
			if f, err = svc.SaveFile(ctx, learner, v.ID, path, fmt.Sprintf("%-99d\n", i), f.Version); err != nil {
				t.Fatal(err)
			}
		}
		got, err := svc.store.CountFileHistory(ctx, db.CountFileHistoryParams{WorkspaceID: v.ID, Path: path})
		if err != nil {
			t.Fatal(err)
		}
		if got.Count != c.wantCount || got.Bytes > c.bytes {
			t.Errorf("%d versions, %d bytes: kept %d versions of %d bytes, want %d", c.versions, c.bytes, got.Count, got.Bytes, c.wantCount)
		}
	}
}

func TestPruneRunsKeepsTheNewestOfEachWorkspace(t *testing.T) {
	svc := newTestService(t, nil, 0)
	svc.cfg.RunsKept = 3
	ctx := context.Background()
	var kept, pruned []string
	for w := range 2 {
		_, v := newWorkspace(t, svc)
		for i := range 5 {
			id := fmt.Sprintf("r_%d_%d", w, i)
			insertDoneRun(t, svc, v.ID, id, int64(1000+i))
			if i >= 2 {
				kept = append(kept, id)
			} else {
				pruned = append(pruned, id)
			}
		}
		queued := fmt.Sprintf("r_%d_queued", w)
		if err := svc.store.InsertRun(ctx, db.InsertRunParams{ID: queued, WorkspaceID: v.ID, Kind: KindCheck, Files: "{}", CreatedAt: 1}); err != nil {
			t.Fatal(err)
		}
		kept = append(kept, queued)
	}
	n, err := svc.PruneRuns(ctx)
	if err != nil || n != 4 {
		t.Fatalf("PruneRuns = %d, %v; want 4", n, err)
	}
	for _, id := range kept {
		if !runExists(t, svc, id) {
			t.Errorf("run %s was pruned", id)
		}
	}
	for _, id := range pruned {
		if runExists(t, svc, id) {
			t.Errorf("run %s was kept", id)
		}
		var events int
		if rawScan(t, svc, onEngine(svc, `SELECT count(*) FROM run_events WHERE run_id = ?`, ""), []any{id}, &events); events != 0 {
			t.Errorf("run %s: %d events left", id, events)
		}
	}
	if n, err := svc.PruneRuns(ctx); err != nil || n != 0 {
		t.Errorf("a second pass pruned %d, %v", n, err)
	}
}

// insertDoneRun records a finished run created at createdAt, with its events.
func insertDoneRun(t testing.TB, svc *Service, wsID, id string, createdAt int64) {
	t.Helper()
	ctx := context.Background()
	snapshot := `{"src/a.js":"` + strings.Repeat("x", 100) + `"}`
	if err := svc.store.InsertRun(ctx, db.InsertRunParams{ID: id, WorkspaceID: wsID, Kind: KindCheck, Files: snapshot, CreatedAt: createdAt}); err != nil {
		t.Fatal(err)
	}
	verdict, results := "pass", `{"version":3,"status":"pass","verdict":"pass","tests":[]}`
	if _, err := svc.store.FinishRun(ctx, db.FinishRunParams{ID: id, Verdict: &verdict, Results: &results, FinishedAt: &createdAt}); err != nil {
		t.Fatal(err)
	}
	for _, status := range []string{StatusQueued, StatusRunning, StatusDone} {
		if err := svc.store.InsertRunEvent(ctx, db.InsertRunEventParams{RunID: id, Status: status, At: createdAt}); err != nil {
			t.Fatal(err)
		}
	}
}

// runExists reports whether the run is still stored.
func runExists(t *testing.T, svc *Service, id string) bool {
	t.Helper()
	var n int
	rawScan(t, svc, onEngine(svc, `SELECT count(*) FROM runs WHERE id = ?`, ""), []any{id}, &n)
	return n == 1
}

func TestOlderRunsArePrunedInTheBackground(t *testing.T) {
	svc := newTestService(t, nil, 0)
	svc.cfg.RunsKept, svc.cfg.PruneEvery = 1, 10*time.Millisecond
	_, v := newWorkspace(t, svc)
	insertDoneRun(t, svc, v.ID, "r_old", 1000)
	insertDoneRun(t, svc, v.ID, "r_new", 2000)
	if err := svc.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer svc.Stop(context.Background())
	deadline := time.Now().Add(time.Minute)
	for runExists(t, svc, "r_old") {
		if time.Now().After(deadline) {
			t.Fatal("the older run was not pruned within a minute")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if !runExists(t, svc, "r_new") {
		t.Error("the newest run was pruned")
	}
}
