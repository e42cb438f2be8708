package workspace

import (
	"context"
	"testing"
	"time"

	"github.com/docker/docker/api/types/container"
	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/runner/runnertest"
	"github.com/racecase/racecase/store/sqlite/db"
)

func TestOwnerIsDead(t *testing.T) {
	now := time.Now()
	beats := map[string]time.Time{"o_self": now.Add(-time.Hour), "o_live": now.Add(-time.Second), "o_dead": now.Add(-ownerTimeout - time.Second)}
	fresh, old := now.Add(-time.Minute), now.Add(-orphanAge-time.Minute)
	for _, c := range []struct {
		owner   string
		created time.Time
		dead    bool
	}{
		{"o_self", old, false},
		{"o_live", old, false},
		{"o_dead", fresh, true},
		{"o_unknown", fresh, false},
		{"o_unknown", old, true},
		{"", fresh, false},
		{"", old, true},
	} {
		if got := ownerIsDead(runner.Leftover{Owner: c.owner, Created: c.created}, "o_self", beats, now); got != c.dead {
			t.Errorf("owner %q created %s ago: dead %v, want %v", c.owner, now.Sub(c.created).Round(time.Minute), got, c.dead)
		}
	}
}

// TestReapDeadOwnersOnTheEngine labels real containers with a dead owner,
// a live one, this process and an owner the database does not know, and
// checks that one reaping pass removes exactly the dead owner's container
// and forgets that owner.
func TestReapDeadOwnersOnTheEngine(t *testing.T) {
	d := runnertest.Engine(t)
	image := runnertest.Image(t, d)
	svc := newTestService(t, d, 0)
	ctx := context.Background()
	if err := svc.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { svc.Stop(context.Background()) })
	self := svc.runs.owner.id
	now := millis(svc.now())
	for id, beat := range map[string]int64{"o_dead_" + self: now - (ownerTimeout + time.Minute).Milliseconds(), "o_live_" + self: now} {
		if err := svc.store.RegisterOwner(ctx, db.RegisterOwnerParams{ID: id, Hostname: "test", Pid: 1, At: beat}); err != nil {
			t.Fatal(err)
		}
	}
	ids := map[string]string{}
	for _, owner := range []string{"o_dead_" + self, "o_live_" + self, self, "o_unknown_" + self} {
		c, err := d.Engine().ContainerCreate(ctx, &container.Config{
			Image: image, Labels: map[string]string{runner.LabelManaged: "true", runner.LabelOwner: owner},
		}, &container.HostConfig{NetworkMode: "none"}, nil, nil, "")
		if err != nil {
			t.Fatal(err)
		}
		ids[owner] = c.ID
		t.Cleanup(func() {
			d.Engine().ContainerRemove(context.Background(), c.ID, container.RemoveOptions{Force: true})
		})
	}
	removed, err := svc.runs.owner.reapDead(ctx)
	if err != nil || removed != 1 {
		t.Fatalf("reapDead = %d, %v; want 1", removed, err)
	}
	for owner, id := range ids {
		_, err := d.Engine().ContainerInspect(ctx, id)
		if gone := err != nil; gone != (owner == "o_dead_"+self) {
			t.Errorf("container of %s: gone %v", owner, gone)
		}
	}
	rows, err := svc.store.ListOwners(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var left []string
	for _, r := range rows {
		left = append(left, r.ID)
	}
	if len(left) != 2 || (left[0] != self && left[1] != self) {
		t.Errorf("owners left: %v; want this one and the live one", left)
	}
}

func TestContainerRunnerLabelsJobsAsTheProcesssOwn(t *testing.T) {
	fake := &fakeRunner{verdict: runner.VerdictPass}
	svc := newTestService(t, fake, 0)
	job := runner.Job{Image: "img", Suite: runner.SuiteHidden, Labels: map[string]string{"racecase.dossier": flagship}}
	if _, err := svc.ContainerRunner().Run(context.Background(), job); err != nil {
		t.Fatal(err)
	}
	got := fake.job(0).Labels
	if got["racecase.dossier"] != flagship || got[runner.LabelOwner] != svc.runs.owner.id || got[instanceLabel] == "" {
		t.Errorf("labels %v", got)
	}
	if len(job.Labels) != 1 {
		t.Errorf("the caller's labels changed: %v", job.Labels)
	}
	if (newTestService(t, nil, 0)).ContainerRunner() != nil {
		t.Error("a service without a runner has a container runner")
	}
}
