package instructor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/racecase/racecase/authoring"
	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/workspace"
)

func TestFolderDossiersAreServedBesideBuiltIns(t *testing.T) {
	f := newFixture(t, "receipt-twice")
	titles := f.titles()
	if titles["receipt-twice"] != skeletonTitle || titles["job-lock-double-send"] == "" {
		t.Fatalf("catalog %v", titles)
	}
	d, _ := f.entry("receipt-twice")
	if d.Source != f.dirs.Challenges || !d.Served || d.Stale || d.Preview != "/dossiers/receipt-twice" || len(d.Problems) != 0 {
		t.Errorf("listing %+v", d)
	}
	if b, _ := f.entry("job-lock-double-send"); b.Source != BuiltIn || !b.Served {
		t.Errorf("built-in listing %+v", b)
	}
	if _, err := f.desk.Validate("receipt-twice", "instructor"); workspace.ErrorCode(err) != workspace.EUNAVAILABLE {
		t.Errorf("Validate without a runner: %v", err)
	}
}

func TestEditReloadsTheDossier(t *testing.T) {
	f := newFixture(t, "receipt-twice")
	f.edit("receipt-twice", challenges.DossierFile, "title: "+skeletonTitle, "title: One receipt too many")
	f.eventually("the new title is served", func() bool { return f.titles()["receipt-twice"] == "One receipt too many" })
}

func TestBrokenEditKeepsTheLastGoodVersion(t *testing.T) {
	f := newFixture(t, "receipt-twice")
	learner, err := f.svc.NewLearner(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ws, err := f.svc.Create(context.Background(), learner, "receipt-twice")
	if err != nil {
		t.Fatal(err)
	}
	f.edit("receipt-twice", challenges.DossierFile, "kind: codebase-incident", "kind: codebase-accident")
	// A scan may read the file while the edit is half written, and list what is
	// wrong with that; the next scan sees the whole edit.
	f.eventually("the problem is listed", func() bool {
		d, _ := f.entry("receipt-twice")
		return d.Stale && len(d.Problems) > 0 && d.Problems[0].Field == "kind"
	})
	d, _ := f.entry("receipt-twice")
	p := d.Problems[0]
	if !strings.HasSuffix(p.File, "receipt-twice/dossier.yaml") || p.Field != "kind" || p.Line == 0 {
		t.Errorf("problem %+v, want one on kind with its line", p)
	}
	if !d.Served || d.Title != skeletonTitle || f.titles()["receipt-twice"] != skeletonTitle {
		t.Errorf("the last good version is not served: %+v, catalog %v", d, f.titles())
	}
	if _, err := f.svc.View(context.Background(), learner, ws.ID); err != nil {
		t.Errorf("the workspace made before the edit: %v", err)
	}

	f.edit("receipt-twice", challenges.DossierFile, "kind: codebase-accident", "kind: codebase-incident")
	f.eventually("the repaired dossier is clean again", func() bool {
		d, _ := f.entry("receipt-twice")
		return !d.Stale && len(d.Problems) == 0
	})
}

func TestNewFoldersAppearAndDeletedOnesDisappear(t *testing.T) {
	f := newFixture(t, "receipt-twice")
	f.scaffold("refund-twice")
	f.eventually("the new dossier is served", func() bool { _, ok := f.titles()["refund-twice"]; return ok })

	if err := os.RemoveAll(filepath.Join(f.dirs.Challenges, "receipt-twice")); err != nil {
		t.Fatal(err)
	}
	f.eventually("the deleted dossier is gone", func() bool {
		_, listed := f.entry("receipt-twice")
		_, served := f.titles()["receipt-twice"]
		return !listed && !served
	})
}

func TestBrokenNewDossierIsListedNotServed(t *testing.T) {
	f := newFixture(t)
	f.scaffold("refund-twice")
	if err := os.Remove(filepath.Join(f.dirs.HiddenTests, "refund-twice", "suite.mjs")); err != nil {
		t.Fatal(err)
	}
	f.edit("refund-twice", challenges.DossierFile, "format: 1", "format: 2")
	f.eventually("the broken dossier is listed", func() bool { _, ok := f.entry("refund-twice"); return ok })
	d, _ := f.entry("refund-twice")
	if d.Served || d.Stale || d.Preview != "" || len(d.Problems) < 2 {
		t.Errorf("listing %+v", d)
	}
	if _, ok := f.titles()["refund-twice"]; ok {
		t.Error("a dossier that never loaded is served")
	}
	if _, err := f.desk.Validate("refund-twice", "instructor"); err == nil {
		t.Error("Validate without a runner succeeded")
	}
}

func TestSlugOfABuiltInIsRefusedAtStart(t *testing.T) {
	root := t.TempDir()
	dirs := authoring.Dirs{Challenges: filepath.Join(root, "challenges"), HiddenTests: filepath.Join(root, "hidden_tests")}
	if _, err := authoring.New(dirs, "job-lock-double-send"); err != nil {
		t.Fatal(err)
	}
	builtIn, err := challenges.Load(challenges.FS, "job-lock-double-send")
	if err != nil {
		t.Fatal(err)
	}
	_, err = New(context.Background(), Config{BuiltIn: []*challenges.Dossier{builtIn}, Dirs: dirs})
	if err == nil || !strings.Contains(err.Error(), filepath.Join(dirs.Challenges, "job-lock-double-send")) ||
		!strings.Contains(err.Error(), `built-in dossier "job-lock-double-send"`) {
		t.Fatalf("err = %v, want one naming both", err)
	}
}
