package workspace

import (
	"context"
	"testing"
	"time"
)

func TestCohortJoinAndClassTable(t *testing.T) {
	svc := newTestService(t, nil, 0)
	ctx := context.Background()
	c, err := svc.CreateCohort(ctx, "instructor", NewCohort{Name: "  Lab A ", Dossiers: []string{flagship}})
	if err != nil {
		t.Fatal(err)
	}
	if c.Name != "Lab A" || c.JoinPath != "/join/"+c.JoinCode || len(c.JoinCode) != 16 || c.CreatedBy != "instructor" {
		t.Fatalf("cohort %+v", c)
	}

	ada, adaWS := newWorkspace(t, svc)
	bob, err := svc.NewLearner(ctx)
	if err != nil {
		t.Fatal(err)
	}
	outsider, _ := newWorkspace(t, svc)
	for learner, name := range map[string]string{ada: "Ada", bob: "Bob"} {
		if _, err := svc.Join(ctx, learner, c.JoinCode, name); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := svc.Join(ctx, ada, c.JoinCode, " Ada L. "); err != nil {
		t.Fatal(err)
	}
	inv, err := svc.Invitation(ctx, ada, c.JoinCode)
	if err != nil || inv.JoinedAs != "Ada L." || !inv.Open || inv.Dossiers[0].Title == "" {
		t.Fatalf("invitation %+v, %v", inv, err)
	}
	if inv, _ := svc.Invitation(ctx, outsider, c.JoinCode); inv.JoinedAs != "" {
		t.Errorf("an outsider is shown as joined: %+v", inv)
	}

	if _, err := svc.RevealHint(ctx, ada, adaWS.ID); err != nil {
		t.Fatal(err)
	}
	if err := svc.PickHypothesis(ctx, ada, adaWS.ID, "redelivery"); err != nil {
		t.Fatal(err)
	}
	wantCode(t, svc.PickHypothesis(ctx, ada, adaWS.ID, "no-such"), EINVALID)
	wantCode(t, svc.PickHypothesis(ctx, bob, adaWS.ID, "redelivery"), ENOTFOUND)

	class, err := svc.Class(ctx, c.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(class.Rows) != 2 {
		t.Fatalf("%d rows, want one per member: %+v", len(class.Rows), class.Rows)
	}
	// Ada and Bob may join within the same millisecond, so the rows are
	// found by learner rather than by position.
	a, b := class.Rows[0], class.Rows[1]
	if a.LearnerID == bob {
		a, b = b, a
	}
	if a.DisplayName != "Ada L." || a.WorkspaceID != adaWS.ID || a.StepTitle != "Opened" || a.HintsRevealed != 1 || a.SolvedAt != nil {
		t.Errorf("Ada's row %+v", a)
	}
	if b.DisplayName != "Bob" || b.WorkspaceID != "" || b.StepTitle != "Not started" {
		t.Errorf("Bob's row %+v", b)
	}

	insights, err := svc.Insights(ctx, c.ID)
	if err != nil || len(insights) != 1 {
		t.Fatalf("insights %+v, %v", insights, err)
	}
	in := insights[0]
	if in.Learners != 1 || in.Solved != 0 || in.Unpicked != 0 || len(in.Hypotheses) != 3 || len(in.Decoys) == 0 {
		t.Errorf("cohort insight %+v", in)
	}
	for _, h := range in.Hypotheses {
		if (h.ID == "redelivery") != (h.Picks == 1) || (h.ID == "lock-claim") != h.RootCause {
			t.Errorf("hypothesis tally %+v", h)
		}
	}
	overall, err := svc.Insights(ctx, "")
	if err != nil || overall[0].Learners != 2 {
		t.Errorf("overall insight counts %+v (%v), want Ada and the outsider", overall, err)
	}
}

func TestCohortRulesAndWindow(t *testing.T) {
	svc := newTestService(t, nil, 0)
	ctx := context.Background()
	for _, nc := range []NewCohort{
		{Name: "", Dossiers: []string{flagship}},
		{Name: "Lab", Dossiers: nil},
		{Name: "Lab", Dossiers: []string{"no-such"}},
		{Name: "Lab", Dossiers: []string{flagship, flagship}},
	} {
		_, err := svc.CreateCohort(ctx, "instructor", nc)
		wantCode(t, err, EINVALID)
	}
	past, future := time.Now().Add(-time.Hour), time.Now().Add(time.Hour)
	_, err := svc.CreateCohort(ctx, "instructor", NewCohort{Name: "Lab", Dossiers: []string{flagship}, OpensAt: &future, ClosesAt: &past})
	if e := wantCode(t, err, EINVALID); e.Data["field"] != "closes_at" {
		t.Errorf("error names %v", e.Data)
	}
	later, err := svc.CreateCohort(ctx, "instructor", NewCohort{Name: "Later", Dossiers: []string{flagship}, OpensAt: &future})
	if err != nil {
		t.Fatal(err)
	}
	closed, err := svc.CreateCohort(ctx, "instructor", NewCohort{Name: "Closed", Dossiers: []string{flagship}, ClosesAt: &past})
	if err != nil {
		t.Fatal(err)
	}
	learner, err := svc.NewLearner(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, code := range []string{later.JoinCode, closed.JoinCode} {
		_, err := svc.Join(ctx, learner, code, "Ada")
		wantCode(t, err, ECONFLICT)
	}
	_, err = svc.Join(ctx, learner, "nosuchcode", "Ada")
	wantCode(t, err, ENOTFOUND)
	_, err = svc.Join(ctx, learner, later.JoinCode, "\x07")
	wantCode(t, err, EINVALID)
}

func TestPreviewIsAThrowawayLearner(t *testing.T) {
	svc := newTestService(t, nil, 0)
	ctx := context.Background()
	learner, own := newWorkspace(t, svc)
	preview, v, err := svc.StartPreview(ctx, "", flagship)
	if err != nil {
		t.Fatal(err)
	}
	if preview == learner || !v.Preview || v.ID == own.ID {
		t.Fatalf("preview %s with %+v", preview, v.Summary)
	}
	again, v2, err := svc.StartPreview(ctx, preview, flagship)
	if err != nil || again == preview || v2.ID == v.ID {
		t.Fatalf("reset preview: %s, %v", again, err)
	}
	_, err = svc.View(ctx, preview, v.ID)
	wantCode(t, err, ENOTFOUND)
	// Ending a preview never deletes a real learner.
	if err := svc.EndPreview(ctx, learner); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.View(ctx, learner, own.ID); err != nil {
		t.Errorf("the real learner's workspace after EndPreview: %v", err)
	}
	if overall, _ := svc.Insights(ctx, ""); overall[0].Learners != 1 {
		t.Errorf("the preview counts in the insights: %+v", overall[0])
	}
	in, err := svc.Inspect(ctx, own.ID)
	if err != nil || in.LearnerID != learner || len(in.Files) != len(own.Files) || in.Files[0].Content == "" {
		t.Errorf("inspection %+v, %v", in.Workspace.Summary, err)
	}
}
