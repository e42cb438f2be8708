package challenges

import (
	"os"
	"strings"
	"testing"
)

func TestOverlays(t *testing.T) {
	fsys := os.DirFS("testdata")
	d, err := Load(fsys, fixture)
	if err != nil {
		t.Fatal(err)
	}
	repo, err := d.RepoFiles(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(repo) != 4 || !strings.Contains(string(repo["src/lock.js"]), "store.get") {
		t.Errorf("RepoFiles = %d files, lock.js %q", len(repo), repo["src/lock.js"])
	}

	sol, err := d.SolutionFiles(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(sol) != 4 || !strings.Contains(string(sol["src/lock.js"]), "setIfAbsent") || sol["README.md"] == nil {
		t.Errorf("SolutionFiles = %d files, lock.js %q", len(sol), sol["src/lock.js"])
	}

	decoys, err := d.Decoys(fsys)
	if err != nil {
		t.Fatal(err)
	}
	if len(decoys) != 1 {
		t.Fatalf("Decoys = %d, want 1", len(decoys))
	}
	dc := decoys[0]
	if dc.Name != "sleep-recheck" || !strings.Contains(dc.Why, "narrows the window") {
		t.Errorf("decoy = %q %q", dc.Name, dc.Why)
	}
	if _, ok := dc.Files[WhyFile]; ok || len(dc.Files) != 4 || !strings.Contains(string(dc.Files["src/lock.js"]), "setTimeout") {
		t.Errorf("decoy files = %d, lock.js %q", len(dc.Files), dc.Files["src/lock.js"])
	}

	// The overlay never changes the repo files it was built from.
	again, _ := d.RepoFiles(fsys)
	if string(again["src/lock.js"]) != string(repo["src/lock.js"]) {
		t.Error("overlay changed repo/")
	}

	for _, bad := range []string{"repo", "decoys", "decoys/../solution", "../x", "decoys/a/b"} {
		if _, err := d.Overlay(fsys, bad); err == nil {
			t.Errorf("Overlay(%q) succeeded", bad)
		}
	}
}
