package workspace

import (
	"context"
	"testing"
	"time"

	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/store/sqlite/db"
)

func TestAbandonValidationsSparesLiveOwners(t *testing.T) {
	svc := newTestService(t, &fakeRunner{verdict: runner.VerdictPass}, 0)
	ctx := context.Background()
	now := svc.now()
	self := svc.runs.owner.id
	if err := svc.runs.owner.register(ctx, millis(now)); err != nil {
		t.Fatal(err)
	}
	// stale stopped beating long ago; recent last beat a second before this
	// service was built: alive on a shared database, but on an unshared one
	// a process that held the data directory before this one.
	beats := map[string]time.Time{"o_stale": now.Add(-ownerTimeout - time.Minute), "o_recent": svc.built.Add(-time.Second)}
	for id, at := range beats {
		if err := svc.store.RegisterOwner(ctx, db.RegisterOwnerParams{ID: id, Hostname: "test", Pid: 1, At: millis(at)}); err != nil {
			t.Fatal(err)
		}
	}
	for _, owner := range []string{"o_stale", "o_recent", "o_gone", self} {
		if err := svc.store.InsertValidation(ctx, db.InsertValidationParams{ID: "v_" + owner, Dossier: flagship,
			DossierVersion: "x", RequestedBy: "test", OwnerID: owner, StartedAt: millis(now)}); err != nil {
			t.Fatal(err)
		}
	}
	n, err := svc.AbandonValidations(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"v_o_stale": "failed", "v_o_gone": "failed", "v_o_recent": "failed", "v_" + self: "running"}
	if svc.store.Shared() {
		want["v_o_recent"] = "running"
	}
	failed := 0
	for _, s := range want {
		if s == "failed" {
			failed++
		}
	}
	if n != int64(failed) {
		t.Errorf("AbandonValidations = %d; want %d", n, failed)
	}
	rows, err := svc.Validations(ctx, flagship, 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(want) {
		t.Fatalf("%d validations; want %d", len(rows), len(want))
	}
	for _, r := range rows {
		if r.State != want[r.ID] {
			t.Errorf("%s is %s; want %s", r.ID, r.State, want[r.ID])
		}
		if (r.State == "failed") != (r.Error == abandonedValidation) {
			t.Errorf("%s is %s with error %q", r.ID, r.State, r.Error)
		}
	}
}

func TestStartValidationRecordsTheOwner(t *testing.T) {
	svc := newTestService(t, &fakeRunner{verdict: runner.VerdictPass}, 0)
	ctx := context.Background()
	if err := svc.StartValidation(ctx, ValidationRecord{ID: "v_1", Dossier: flagship, Version: "x", RequestedBy: "test",
		StartedAt: svc.now()}); err != nil {
		t.Fatal(err)
	}
	var owner string
	rawScan(t, svc, onEngine(svc, "SELECT owner_id FROM validations WHERE id = ?", ""), []any{"v_1"}, &owner)
	if owner != svc.runs.owner.id || owner == "" {
		t.Errorf("owner %q; want %q", owner, svc.runs.owner.id)
	}
}

func TestHeartbeatFailsTheValidationsOfDeadOwners(t *testing.T) {
	svc := newTestService(t, &fakeRunner{verdict: runner.VerdictPass}, 0)
	ctx := context.Background()
	now := svc.now()
	self := svc.runs.owner.id
	if err := svc.store.RegisterOwner(ctx, db.RegisterOwnerParams{ID: "o_dead", Hostname: "test", Pid: 1,
		At: millis(now.Add(-ownerTimeout - time.Minute))}); err != nil {
		t.Fatal(err)
	}
	for _, owner := range []string{"o_dead", self} {
		if err := svc.store.InsertValidation(ctx, db.InsertValidationParams{ID: "v_" + owner, Dossier: flagship,
			DossierVersion: "x", RequestedBy: "test", OwnerID: owner, StartedAt: millis(now)}); err != nil {
			t.Fatal(err)
		}
	}
	svc.runs.owner.beat(ctx)
	rows, err := svc.Validations(ctx, flagship, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"v_o_dead": "failed", "v_" + self: "running"}
	for _, r := range rows {
		if r.State != want[r.ID] {
			t.Errorf("%s is %s; want %s", r.ID, r.State, want[r.ID])
		}
	}
	if len(rows) != len(want) {
		t.Errorf("%d validations; want %d", len(rows), len(want))
	}
}
