package instructor

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/racecase/racecase/authoring"
	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/store/sqlite"
	"github.com/racecase/racecase/workspace"
)

// skeletonTitle is the title of a dossier `racecase new` writes.
const skeletonTitle = "Two workers sent the same receipt"

// fixture is a desk watching a temporary dossier folder, over a real service
// serving one built-in dossier.
type fixture struct {
	t    *testing.T
	dirs authoring.Dirs
	svc  *workspace.Service
	desk *Desk
}

// newFixture scaffolds the given dossiers into a temporary folder and starts
// a desk watching it every 20 ms.
func newFixture(t *testing.T, slugs ...string) *fixture {
	t.Helper()
	root := t.TempDir()
	f := &fixture{t: t, dirs: authoring.Dirs{
		Challenges: filepath.Join(root, "challenges"), HiddenTests: filepath.Join(root, "hidden_tests")}}
	if err := os.MkdirAll(f.dirs.Challenges, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, slug := range slugs {
		f.scaffold(slug)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	db, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	builtIn, err := challenges.Load(challenges.FS, "job-lock-double-send")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(t.Output(), nil))
	if f.svc, err = workspace.New(ctx, db, workspace.Config{Dossiers: []*challenges.Dossier{builtIn},
		Content: challenges.FS, HiddenSuite: Suites([]*challenges.Dossier{builtIn}, f.dirs), Logger: log}); err != nil {
		t.Fatal(err)
	}
	if f.desk, err = New(ctx, Config{Service: f.svc, History: f.svc, BuiltIn: []*challenges.Dossier{builtIn}, Dirs: f.dirs, Logger: log}); err != nil {
		t.Fatal(err)
	}
	go f.desk.Watch(ctx, 20*time.Millisecond)
	return f
}

// scaffold writes a new skeleton dossier into the folder.
func (f *fixture) scaffold(slug string) {
	f.t.Helper()
	if _, err := authoring.New(f.dirs, slug); err != nil {
		f.t.Fatal(err)
	}
}

// edit replaces old by new in a file of dossier slug.
func (f *fixture) edit(slug, file, old, new string) {
	f.t.Helper()
	p := filepath.Join(f.dirs.Challenges, slug, file)
	data, err := os.ReadFile(p)
	if err != nil {
		f.t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		f.t.Fatalf("%s has no %q", p, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(data), old, new, 1)), 0o644); err != nil {
		f.t.Fatal(err)
	}
}

// titles returns the served catalog's titles by slug.
func (f *fixture) titles() map[string]string {
	f.t.Helper()
	cards, err := f.svc.Cards(context.Background(), "")
	if err != nil {
		f.t.Fatal(err)
	}
	out := map[string]string{}
	for _, c := range cards {
		out[c.Slug] = c.Title
	}
	return out
}

// entry returns the desk's listing of slug, and whether it is listed.
func (f *fixture) entry(slug string) (Dossier, bool) {
	for _, d := range f.desk.List() {
		if d.Slug == slug {
			return d, true
		}
	}
	return Dossier{}, false
}

// eventually fails the test unless cond holds within 5 s.
func (f *fixture) eventually(what string, cond func() bool) {
	f.t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			f.t.Fatalf("not within 5 s: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
