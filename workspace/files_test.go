package workspace

import (
	"context"
	"strings"
	"testing"
)

const lockFile = "src/locks/job-lock.js"

func TestSaveIsOptimistic(t *testing.T) {
	ctx := context.Background()
	svc := newTestService(t, nil, 0)
	learner, ws := newWorkspace(t, svc)

	f, err := svc.ReadFile(ctx, learner, ws.ID, lockFile)
	if err != nil || f.Version != 1 || f.Changed {
		t.Fatalf("fresh file: %+v, %v", f.FileInfo, err)
	}
	tabA, err := svc.SaveFile(ctx, learner, ws.ID, lockFile, "// tab A\n", 1)
	if err != nil || tabA.Version != 2 || !tabA.Changed {
		t.Fatalf("first save: %+v, %v", tabA.FileInfo, err)
	}

	// A second tab still editing version 1 is refused with the current file.
	_, err = svc.SaveFile(ctx, learner, ws.ID, lockFile, "// tab B\n", 1)
	e := wantCode(t, err, ECONFLICT)
	current, ok := e.Data["current"].(File)
	if !ok || current.Content != "// tab A\n" || current.Version != 2 {
		t.Fatalf("conflict data %#v", e.Data)
	}

	// Retrying a save that went through is harmless.
	again, err := svc.SaveFile(ctx, learner, ws.ID, lockFile, "// tab A\n", 1)
	if err != nil || again.Version != 2 {
		t.Fatalf("retried save: %+v, %v", again.FileInfo, err)
	}
	if f, _ := svc.ReadFile(ctx, learner, ws.ID, lockFile); f.Content != "// tab A\n" {
		t.Fatalf("after the conflict the file holds %q", f.Content)
	}

	progress, err := svc.Progress(ctx, learner, ws.ID)
	if err != nil || !progress.Steps[1].Done {
		t.Fatalf("a changing save should reach 'Edit the fix': %+v, %v", progress, err)
	}
}

func TestRefusedSavesLoseNothing(t *testing.T) {
	ctx := context.Background()
	svc := newTestService(t, nil, 0)
	learner, ws := newWorkspace(t, svc)
	if _, err := svc.SaveFile(ctx, learner, ws.ID, lockFile, "// kept\n", 1); err != nil {
		t.Fatal(err)
	}

	wantCode(t, save(svc, learner, ws.ID, "package.json", "{}"), EFORBIDDEN)
	wantCode(t, save(svc, learner, ws.ID, "src/new-file.js", "x"), ENOTFOUND)
	wantCode(t, save(svc, learner, ws.ID, "../etc/passwd", "x"), EINVALID)
	wantCode(t, save(svc, learner, ws.ID, "/src/locks/job-lock.js", "x"), EINVALID)
	wantCode(t, save(svc, learner, ws.ID, lockFile, strings.Repeat("x", MaxFileBytes+1)), ETOOLARGE)
	wantCode(t, save(svc, learner, ws.ID, lockFile, "binary \xff\xfe"), EINVALID)
	wantCode(t, save(svc, learner, ws.ID, lockFile, "nul \x00"), EINVALID)

	// Fill other files until the workspace cap refuses one.
	big := strings.Repeat("y", MaxFileBytes)
	var refused error
	for _, f := range ws.Files {
		if f.ReadOnly || f.Path == lockFile {
			continue
		}
		if refused = save(svc, learner, ws.ID, f.Path, big); refused != nil {
			break
		}
	}
	e := wantCode(t, refused, ETOOLARGE)
	if e.Data["limit_bytes"] != MaxWorkspaceBytes {
		t.Fatalf("workspace cap data %#v", e.Data)
	}

	if f, err := svc.ReadFile(ctx, learner, ws.ID, lockFile); err != nil || f.Content != "// kept\n" || f.Version != 2 {
		t.Fatalf("saved file after refusals: %+v, %v", f, err)
	}
	if f, err := svc.ReadFile(ctx, learner, ws.ID, "package.json"); err != nil || f.Changed {
		t.Fatalf("read-only file changed: %+v, %v", f.FileInfo, err)
	}
}

// save saves content over whatever version the file has.
func save(svc *Service, learner, wsID, path, content string) error {
	ctx := context.Background()
	version := int64(1)
	if clean, err := CleanPath(path); err == nil {
		if f, err := svc.ReadFile(ctx, learner, wsID, clean); err == nil {
			version = f.Version
		}
	}
	_, err := svc.SaveFile(ctx, learner, wsID, path, content, version)
	return err
}

func TestResetAndDiff(t *testing.T) {
	ctx := context.Background()
	svc := newTestService(t, nil, 0)
	learner, ws := newWorkspace(t, svc)
	if _, err := svc.SaveFile(ctx, learner, ws.ID, lockFile, "// mine\n", 1); err != nil {
		t.Fatal(err)
	}
	if _, err := svc.SaveFile(ctx, learner, ws.ID, "README.md", "# mine\n", 1); err != nil {
		t.Fatal(err)
	}
	d, err := svc.Diff(ctx, learner, ws.ID)
	if err != nil || len(d.Files) != 2 || !strings.Contains(d.Patch, "+// mine") {
		t.Fatalf("diff: %v, %v", d.Files, err)
	}

	f, err := svc.ResetFile(ctx, learner, ws.ID, lockFile)
	if err != nil || f.Changed || f.Version != 3 {
		t.Fatalf("reset file: %+v, %v", f.FileInfo, err)
	}
	files, err := svc.ResetAll(ctx, learner, ws.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if f.Changed {
			t.Errorf("%s still changed after reset", f.Path)
		}
	}
	if d, _ := svc.Diff(ctx, learner, ws.ID); d.Patch != "" {
		t.Fatalf("diff after reset:\n%s", d.Patch)
	}
}

func TestOtherLearnersSeeNothing(t *testing.T) {
	ctx := context.Background()
	svc := newTestService(t, &fakeRunner{verdict: "pass"}, 0)
	learner, ws := newWorkspace(t, svc)
	run, err := svc.StartRun(ctx, learner, ws.ID, KindCheck)
	if err != nil {
		t.Fatal(err)
	}
	other, _ := newWorkspace(t, svc)
	for _, anyone := range []string{other, ""} {
		_, err := svc.View(ctx, anyone, ws.ID)
		wantCode(t, err, ENOTFOUND)
		_, err = svc.ReadFile(ctx, anyone, ws.ID, lockFile)
		wantCode(t, err, ENOTFOUND)
		_, err = svc.SaveFile(ctx, anyone, ws.ID, lockFile, "x", 1)
		wantCode(t, err, ENOTFOUND)
		_, err = svc.StartRun(ctx, anyone, ws.ID, KindSubmit)
		wantCode(t, err, ENOTFOUND)
		_, err = svc.Run(ctx, anyone, run.ID)
		wantCode(t, err, ENOTFOUND)
		_, err = svc.RevealHint(ctx, anyone, ws.ID)
		wantCode(t, err, ENOTFOUND)
	}
	if list, _ := svc.List(ctx, other); len(list) != 1 || list[0].ID == ws.ID {
		t.Fatalf("other learner lists %+v", list)
	}
}

func TestHintsAreRevealedInOrder(t *testing.T) {
	ctx := context.Background()
	svc := newTestService(t, nil, 0)
	learner, ws := newWorkspace(t, svc)
	for _, h := range ws.Hints {
		if h.Revealed || h.Text != "" || h.Title == "" {
			t.Fatalf("unrevealed hint shows %+v", h)
		}
	}
	d := svc.dossiers[flagship]
	for i := range d.Hints {
		h, err := svc.RevealHint(ctx, learner, ws.ID)
		if err != nil || h.Index != i || h.Text != d.Hints[i].Text || h.RevealedAt == nil {
			t.Fatalf("reveal %d: %+v, %v", i, h, err)
		}
	}
	_, err := svc.RevealHint(ctx, learner, ws.ID)
	wantCode(t, err, ECONFLICT)
	hints, err := svc.Hints(ctx, learner, ws.ID)
	if err != nil || len(hints) != len(d.Hints) || !hints[len(hints)-1].Revealed {
		t.Fatalf("hints after revealing all: %+v, %v", hints, err)
	}
}
