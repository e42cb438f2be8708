package authoring

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/racecase/racecase/challenges"
)

// scaffoldClass writes the example of class c, named after it, into a fresh
// dossier repository and returns the repository and the slug.
func scaffoldClass(t *testing.T, c Class) (Dirs, string) {
	t.Helper()
	dirs := freshDirs(t)
	slug := "example-" + c.Name
	if _, err := NewOfClass(dirs, slug, c); err != nil {
		t.Fatalf("NewOfClass(%s): %v", c.Name, err)
	}
	return dirs, slug
}

func TestEveryClassPassesLint(t *testing.T) {
	for _, c := range Classes() {
		t.Run(c.Name, func(t *testing.T) {
			dirs, slug := scaffoldClass(t, c)
			report, err := Lint(dirs, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(report.Problems) > 0 {
				t.Fatalf("the %s example has problems:\n%s", c.Name, report.Problems.Detailed())
			}
			if marked := report.Skeletons[slug]; len(marked) > 0 {
				t.Errorf("the %s example's bug is not written: %v", c.Name, marked)
			}
			d, err := challenges.Load(os.DirFS(dirs.Challenges), slug)
			if err != nil {
				t.Fatal(err)
			}
			decoys, err := d.Decoys(os.DirFS(dirs.Challenges))
			if err != nil || len(decoys) < 2 {
				t.Errorf("the %s example has %d decoys (%v), want at least two", c.Name, len(decoys), err)
			}
		})
	}
}

// TestEveryClassVisibleTestReproduces runs each example's npm test with the
// host's Node.js: the buggy repository fails it and the reference fix passes.
func TestEveryClassVisibleTestReproduces(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("no node on PATH")
	}
	for _, c := range Classes() {
		t.Run(c.Name, func(t *testing.T) {
			dirs, slug := scaffoldClass(t, c)
			dossier := filepath.Join(dirs.Challenges, slug)
			repo := filepath.Join(dossier, "repo")
			if out, err := nodeTest(repo); err == nil {
				t.Errorf("the buggy repository passes its visible test:\n%s", out)
			}
			if err := writeTree(repo, os.DirFS(filepath.Join(dossier, "solution"))); err != nil {
				t.Fatal(err)
			}
			if out, err := nodeTest(repo); err != nil {
				t.Errorf("the reference fix fails the visible test: %v\n%s", err, out)
			}
		})
	}
}

func TestClassNamed(t *testing.T) {
	c, err := ClassNamed("check-then-set")
	if err != nil || c.Name != "check-then-set" {
		t.Fatalf("ClassNamed(check-then-set) = %q, %v", c.Name, err)
	}
	_, err = ClassNamed("race")
	if !errors.Is(err, ErrUnknownClass) {
		t.Fatalf("ClassNamed(race) = %v, want ErrUnknownClass", err)
	}
	for _, c := range Classes() {
		if !strings.Contains(err.Error(), c.Name) {
			t.Errorf("the error %q does not name the class %s", err, c.Name)
		}
	}
}
