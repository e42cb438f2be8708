package sqlite

import (
	"context"
	"strings"
	"testing"

	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
)

func TestOpenMigratesOnceAndLocksTheDirectory(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	d, err := Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Open(ctx, dir); err == nil || !strings.Contains(err.Error(), "in use by another racecase process") {
		t.Fatalf("second open of a locked directory: %v", err)
	}
	if err := d.CreateLearner(ctx, db.CreateLearnerParams{ID: "l_1", CreatedAt: 1}); err != nil {
		t.Fatal(err)
	}
	d.Close()

	// Reopening applies nothing twice and keeps the data.
	d, err = Open(ctx, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var applied, learners, riverTables int
	if err := d.Pool.QueryRow(`SELECT count(*) FROM schema_migrations`).Scan(&applied); err != nil {
		t.Fatal(err)
	}
	if err := d.Pool.QueryRow(`SELECT count(*) FROM learners`).Scan(&learners); err != nil {
		t.Fatal(err)
	}
	if err := d.Pool.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'river_job'`).Scan(&riverTables); err != nil {
		t.Fatal(err)
	}
	if applied < 1 || learners != 1 || riverTables != 1 {
		t.Fatalf("migrations %d, learners %d, river_job tables %d", applied, learners, riverTables)
	}
	var mode string
	if err := d.Pool.QueryRow(`PRAGMA journal_mode`).Scan(&mode); err != nil || mode != "wal" {
		t.Fatalf("journal mode %q, %v", mode, err)
	}
	var fk int
	if err := d.Pool.QueryRow(`PRAGMA foreign_keys`).Scan(&fk); err != nil || fk != 1 {
		t.Fatalf("foreign keys %d, %v", fk, err)
	}
}

func TestOneRunInFlightIsEnforcedByTheDatabase(t *testing.T) {
	ctx := context.Background()
	d, err := Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(d.CreateLearner(ctx, db.CreateLearnerParams{ID: "l", CreatedAt: 1}))
	must(d.CreateWorkspace(ctx, db.CreateWorkspaceParams{ID: "w", LearnerID: "l", Dossier: "x", CreatedAt: 1}))
	must(d.InsertRun(ctx, db.InsertRunParams{ID: "r1", WorkspaceID: "w", Kind: "check", Files: "{}", CreatedAt: 1}))
	err = d.InsertRun(ctx, db.InsertRunParams{ID: "r2", WorkspaceID: "w", Kind: "check", Files: "{}", CreatedAt: 2})
	if !store.IsUniqueViolation(err) {
		t.Fatalf("a second run in flight: %v", err)
	}
	verdict, results, at := "pass", "{}", int64(3)
	n, err := d.FinishRun(ctx, db.FinishRunParams{Verdict: &verdict, Results: &results, FinishedAt: &at, ID: "r1"})
	if err != nil || n != 1 {
		t.Fatalf("finish: %d, %v", n, err)
	}
	if n, _ := d.FinishRun(ctx, db.FinishRunParams{Verdict: &verdict, Results: &results, FinishedAt: &at, ID: "r1"}); n != 0 {
		t.Fatal("a second verdict was written")
	}
	must(d.InsertRun(ctx, db.InsertRunParams{ID: "r2", WorkspaceID: "w", Kind: "check", Files: "{}", CreatedAt: 2}))
}
