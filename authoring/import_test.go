package authoring

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"

	"github.com/racecase/racecase/challenges"
)

func TestImportFromLocalRepository(t *testing.T) {
	up := newUpstream(t)
	for _, tc := range []struct {
		ref, commit, claims string
	}{
		{"", up.fixed.String(), "export const fixed"},            // HEAD: main
		{"v1", up.buggy.String(), "store.get"},                   // lightweight tag
		{"v1-notes", up.buggy.String(), "store.get"},             // annotated tag
		{"legacy", up.buggy.String(), "store.get"},               // branch
		{up.buggy.String(), up.buggy.String(), "store.get"},      // full hash
		{up.buggy.String()[:10], up.buggy.String(), "store.get"}, // abbreviated hash
	} {
		t.Run("ref="+tc.ref, func(t *testing.T) {
			dirs := scaffold(t, "receipt-twice")
			src, n, err := Import(context.Background(), dirs.Challenges, "receipt-twice", ImportOptions{From: up.dir, Ref: tc.ref, Path: "svc/worker"})
			if err != nil {
				t.Fatal(err)
			}
			want := challenges.Source{URL: up.dir, Ref: tc.ref, Commit: tc.commit, Path: "svc/worker"}
			if *src != want || n != 4 {
				t.Fatalf("Import = %+v, %d files; want %+v, 4 files", *src, n, want)
			}
			repo := filepath.Join(dirs.Challenges, "receipt-twice", "repo")
			claims, _ := os.ReadFile(filepath.Join(repo, "src", "claims.js"))
			if !strings.Contains(string(claims), tc.claims) {
				t.Errorf("repo/src/claims.js = %q, want the file at %s", claims, tc.commit)
			}
			if _, err := os.Stat(filepath.Join(repo, "src", "worker.js")); !errors.Is(err, os.ErrNotExist) {
				t.Error("the skeleton's repo/ files were kept; repo/ must hold exactly the imported files")
			}
			d := loadSource(t, dirs, "receipt-twice")
			if d.Source == nil || *d.Source != want {
				t.Errorf("dossier.yaml source = %+v, want %+v", d.Source, want)
			}
		})
	}
}

func TestImportTwiceReplacesTheSource(t *testing.T) {
	up := newUpstream(t)
	dirs := scaffold(t, "receipt-twice")
	ctx := context.Background()
	if _, _, err := Import(ctx, dirs.Challenges, "receipt-twice", ImportOptions{From: up.dir, Ref: "v1", Path: "svc/worker"}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Import(ctx, dirs.Challenges, "receipt-twice", ImportOptions{From: up.dir}); err != nil {
		t.Fatal(err)
	}
	yaml, _ := os.ReadFile(filepath.Join(dirs.Challenges, "receipt-twice", "dossier.yaml"))
	if n := strings.Count(string(yaml), "\nsource:"); n != 1 {
		t.Errorf("dossier.yaml has %d source fields", n)
	}
	d := loadSource(t, dirs, "receipt-twice")
	if d.Source.Commit != up.fixed.String() || d.Source.Path != "" || d.Source.Ref != "" {
		t.Errorf("source after the second import = %+v", d.Source)
	}
	if _, err := os.Stat(filepath.Join(dirs.Challenges, "receipt-twice", "repo", "svc", "billing", "src", "invoice.js")); err != nil {
		t.Errorf("the whole repository was not imported: %v", err)
	}
}

func TestImportOverHTTP(t *testing.T) {
	up := newUpstream(t)
	url := serveGit(t, up.dir)
	dirs := scaffold(t, "receipt-twice")
	src, n, err := Import(context.Background(), dirs.Challenges, "receipt-twice", ImportOptions{From: url, Ref: "legacy", Path: "svc/worker"})
	if err != nil {
		t.Fatal(err)
	}
	if src.Commit != up.buggy.String() || n != 4 {
		t.Fatalf("Import = %+v, %d files; want commit %s, 4 files", src, n, up.buggy)
	}
	src, _, err = Import(context.Background(), dirs.Challenges, "receipt-twice", ImportOptions{From: url})
	if err != nil || src.Commit != up.fixed.String() {
		t.Fatalf("Import of the default branch = %+v, %v; want commit %s", src, err, up.fixed)
	}
}

func TestImportBadSource(t *testing.T) {
	up := newUpstream(t)
	notRepo := t.TempDir()
	closed := closedPort(t)
	withLink := newUpstream(t)
	withLink.addSymlink(t, "svc/worker/current", "src/claims.js")
	for _, tc := range []struct {
		name    string
		opts    ImportOptions
		message string
	}{
		{"unknown ref", ImportOptions{From: up.dir, Ref: "v9"}, `no commit, branch or tag "v9" (branches and tags: legacy, master, v1, v1-notes)`},
		{"missing folder", ImportOptions{From: up.dir, Path: "svc/mailer"}, `no folder "svc/mailer" (top-level folders: svc)`},
		{"folder outside", ImportOptions{From: up.dir, Path: "../etc"}, "not a clean path"},
		{"missing path", ImportOptions{From: filepath.Join(notRepo, "nothing")}, "cannot read"},
		{"not a repository", ImportOptions{From: notRepo}, "is not a git repository"},
		{"unreachable URL", ImportOptions{From: "http://" + closed + "/repo.git"}, "cannot clone"},
		{"symbolic link", ImportOptions{From: withLink.dir, Path: "svc/worker"}, "current: a symbolic link"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dirs := scaffold(t, "receipt-twice")
			before, _ := os.ReadFile(filepath.Join(dirs.Challenges, "receipt-twice", "dossier.yaml"))
			_, _, err := Import(context.Background(), dirs.Challenges, "receipt-twice", tc.opts)
			if !errors.Is(err, ErrBadSource) || !strings.Contains(err.Error(), tc.message) {
				t.Fatalf("Import = %v; want ErrBadSource saying %q", err, tc.message)
			}
			after, _ := os.ReadFile(filepath.Join(dirs.Challenges, "receipt-twice", "dossier.yaml"))
			if string(after) != string(before) {
				t.Error("a failed import changed dossier.yaml")
			}
			if _, err := os.Stat(filepath.Join(dirs.Challenges, "receipt-twice", "repo", "src", "worker.js")); err != nil {
				t.Error("a failed import changed repo/")
			}
		})
	}
}

func TestImportNeedsTheDossier(t *testing.T) {
	up := newUpstream(t)
	dirs := scaffold(t, "receipt-twice")
	if _, _, err := Import(context.Background(), dirs.Challenges, "other-dossier", ImportOptions{From: up.dir}); !errors.Is(err, ErrNoDossier) {
		t.Errorf("Import into a missing dossier = %v, want ErrNoDossier", err)
	}
	if _, _, err := Import(context.Background(), dirs.Challenges, "Bad Slug", ImportOptions{From: up.dir}); !errors.Is(err, ErrInvalidSlug) {
		t.Errorf("Import with a bad slug = %v, want ErrInvalidSlug", err)
	}
}

// loadSource loads a dossier that may have problems other than its source
// (an imported repo/ no longer matches the skeleton's paths) and returns it
// decoded as far as its source.
func loadSource(t *testing.T, dirs Dirs, slug string) *challenges.Dossier {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dirs.Challenges, slug, "dossier.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var d challenges.Dossier
	if err := yaml.Unmarshal(data, &d); err != nil {
		t.Fatal(err)
	}
	return &d
}

// closedPort returns a local address nothing listens on.
func closedPort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}
