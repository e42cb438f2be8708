package workspace

import (
	"context"
	"encoding/json"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/runner"
)

func TestPlaybookOnlyAfterAPassingSubmission(t *testing.T) {
	ctx := context.Background()
	svc := newTestService(t, &fakeRunner{verdict: runner.VerdictPass}, 0)
	startQueue(t, svc)
	learner, ws := newWorkspace(t, svc)

	if ws.Progress.Playbook != nil {
		t.Fatal("a new workspace carries the playbook")
	}
	wantCode(t, func() error { _, err := svc.Playbook(ctx, learner, flagship); return err }(), EFORBIDDEN)
	wantCode(t, func() error { _, err := svc.Playbook(ctx, learner, "no-such-dossier"); return err }(), ENOTFOUND)
	if shelf, err := svc.Playbooks(ctx, learner); err != nil || len(shelf) != 0 {
		t.Fatalf("shelf before solving: %v, %v", shelf, err)
	}
	check, err := svc.StartRun(ctx, learner, ws.ID, KindCheck)
	if err != nil {
		t.Fatal(err)
	}
	waitVerdict(t, svc, learner, check.ID)
	if p, _ := svc.Progress(ctx, learner, ws.ID); p.Playbook != nil {
		t.Fatal("a passing check revealed the playbook")
	}

	submit, err := svc.StartRun(ctx, learner, ws.ID, KindSubmit)
	if err != nil {
		t.Fatal(err)
	}
	waitVerdict(t, svc, learner, submit.ID)
	p, err := svc.Progress(ctx, learner, ws.ID)
	if err != nil {
		t.Fatal(err)
	}
	pb := p.Playbook
	if pb == nil || pb.Slug != flagship || pb.TLDR == "" || len(pb.Steps) < 3 || !pb.SolvedAt.Equal(*p.SolvedAt) {
		t.Fatalf("after a passing submission: %+v", pb)
	}
	shelf, err := svc.Playbooks(ctx, learner)
	if err != nil || len(shelf) != 1 || shelf[0].Slug != flagship {
		t.Fatalf("shelf after solving: %+v, %v", shelf, err)
	}
	if one, err := svc.Playbook(ctx, learner, flagship); err != nil || one.TLDR != pb.TLDR {
		t.Fatalf("the solved playbook: %+v, %v", one, err)
	}
	// Another learner has earned nothing.
	other, err := svc.NewLearner(ctx)
	if err != nil {
		t.Fatal(err)
	}
	wantCode(t, func() error { _, err := svc.Playbook(ctx, other, flagship); return err }(), EFORBIDDEN)
}

// TestPlaybookLinksServedLookAlikes: a look-alike names its dossier only
// while that dossier is served.
func TestPlaybookLinksServedLookAlikes(t *testing.T) {
	svc := newTestService(t, nil, 0)
	d, _ := svc.dossier(flagship)
	linked := func() []string {
		var out []string
		for _, l := range svc.playbookOf(d, time.Time{}).NotFor {
			if l.Dossier != nil {
				out = append(out, l.Dossier.Slug+"="+l.Dossier.Title)
			}
		}
		return out
	}
	if got := linked(); len(got) != 0 {
		t.Fatalf("links to dossiers that are not served: %v", got)
	}
	outreach, err := challenges.Load(challenges.FS, "outreach-lease-expiry")
	if err != nil {
		t.Fatal(err)
	}
	if err := svc.Publish(outreach, challenges.FS); err != nil {
		t.Fatal(err)
	}
	if got := linked(); !slices.Equal(got, []string{"outreach-lease-expiry=" + outreach.Title}) {
		t.Fatalf("links %v", got)
	}
}

// TestPlaybookServesExactlyTheSchemasSecretAndPublicFields keeps the served
// playbook and the schema's x-visibility marks in step: every field marked
// public or secret is served after a pass, and nothing marked internal is.
func TestPlaybookServesExactlyTheSchemasSecretAndPublicFields(t *testing.T) {
	var schema struct {
		Properties map[string]struct {
			Properties map[string]struct {
				Visibility string `json:"x-visibility"`
			} `json:"properties"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(challenges.SchemaJSON(), &schema); err != nil {
		t.Fatal(err)
	}
	marked := map[string]bool{}
	for name, f := range schema.Properties["playbook"].Properties {
		switch f.Visibility {
		case "public", "secret":
			marked[name] = true
		case "internal":
		default:
			t.Errorf("playbook.%s has x-visibility %q, want public, secret or internal", name, f.Visibility)
		}
	}
	served := map[string]bool{}
	pt := reflect.TypeFor[Playbook]()
	for i := range pt.NumField() {
		name, _, _ := strings.Cut(pt.Field(i).Tag.Get("json"), ",")
		served[name] = true
	}
	for _, meta := range []string{"slug", "title", "solved_at"} {
		delete(served, meta)
	}
	if !maps.Equal(marked, served) {
		t.Errorf("the schema marks %v as served, the Playbook serves %v", slices.Sorted(maps.Keys(marked)), slices.Sorted(maps.Keys(served)))
	}
}
