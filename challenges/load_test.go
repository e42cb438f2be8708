package challenges

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"testing"
	"testing/fstest"
)

const fixture = "tiny-lock"

// fixtureFS copies testdata/ into a MapFS so that tests can break it freely.
func fixtureFS(t *testing.T) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	src := os.DirFS("testdata")
	err := fs.WalkDir(src, fixture, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() {
			return err
		}
		data, err := fs.ReadFile(src, p)
		m[p] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// fixtureYAML is the fixture's dossier.yaml text.
func fixtureYAML(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("testdata/" + fixture + "/dossier.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// lineOf returns the 1-based line of the first line of text containing s.
func lineOf(t *testing.T, text, s string) int {
	t.Helper()
	for i, l := range strings.Split(text, "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("fixture has no line containing %q", s)
	return 0
}

// editYAML replaces old with new in the fixture's dossier.yaml (exactly once).
func editYAML(t *testing.T, m fstest.MapFS, old, new string) {
	t.Helper()
	f := m[fixture+"/dossier.yaml"]
	s := string(f.Data)
	if strings.Count(s, old) != 1 {
		t.Fatalf("fixture dossier.yaml contains %q %d times, want once", old, strings.Count(s, old))
	}
	f.Data = []byte(strings.Replace(s, old, new, 1))
}

func TestLoadFixture(t *testing.T) {
	d, err := Load(os.DirFS("testdata"), fixture)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if d.Slug != fixture || d.Difficulty != "easy" || d.EstimateMinutes != 10 {
		t.Errorf("header = %q %q %d", d.Slug, d.Difficulty, d.EstimateMinutes)
	}
	if got := len(d.Architecture.Edges); got != 2 {
		t.Errorf("edges = %d, want 2", got)
	}
	if got := d.Logs[0].Lines; len(got) != 2 || !strings.Contains(got[1], "worker=green") {
		t.Errorf("log lines = %q", got)
	}
	want := []Metric{{Name: "job ids", Value: 1}, {Name: "runs", Value: 2}, {Name: "latency", Value: 12.5, Unit: "ms"}}
	if got := d.Metrics[0].Values; len(got) != len(want) {
		t.Errorf("metrics = %+v, want %+v", got, want)
	} else {
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("metric %d = %+v, want %+v", i, got[i], want[i])
			}
		}
	}
	if d.Changes[0].When != "2026-03-02" {
		t.Errorf("unquoted date: when = %q", d.Changes[0].When)
	}
	if d.RepoScale.MeaningfulFiles != 4 {
		t.Errorf("meaningful files = %d, want 4", d.RepoScale.MeaningfulFiles)
	}
	if d.Limits.CPUSeconds != 10 || d.Limits.PIDs != 0 {
		t.Errorf("limits = %+v", d.Limits)
	}
	if h, ok := d.Hint(3); !ok || !strings.HasPrefix(h.Text, "HINT-TEXT-FOUR") {
		t.Errorf("Hint(3) = %+v, %v", h, ok)
	}
	if _, ok := d.Hint(4); ok {
		t.Error("Hint(4) exists")
	}
}

func TestLoadMissingAndInvalidSlug(t *testing.T) {
	fsys := os.DirFS("testdata")
	if _, err := Load(fsys, "no-such-dossier"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Load(unknown) = %v, want fs.ErrNotExist", err)
	}
	for _, slug := range []string{"../testdata", "", "Tiny", "tiny-lock/repo"} {
		if _, err := Load(fsys, slug); err == nil || errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Load(%q) = %v, want an invalid-slug error", slug, err)
		}
	}
}

func TestLoadAll(t *testing.T) {
	m := fixtureFS(t)
	m["other-dossier/dosier.yaml"] = &fstest.MapFile{Data: []byte("format: 1\n")}
	m["schema/dossier.schema.json"] = &fstest.MapFile{Data: []byte("{}")}
	ds, err := LoadAll(m)
	if len(ds) != 1 || ds[0].Slug != fixture {
		t.Errorf("LoadAll dossiers = %v", ds)
	}
	var ps Problems
	if !errors.As(err, &ps) || len(ps) != 1 || ps[0].File != "other-dossier/dossier.yaml" {
		t.Errorf("LoadAll error = %v, want one problem for other-dossier", err)
	}
}

func TestProblemsError(t *testing.T) {
	ps := Problems{
		{File: "a/dossier.yaml", Field: "architecture.edges[1].to", Line: 42, Message: `unknown node "wrker"`, Fix: "did you mean"},
		{File: "a/repo/package.json", Message: "missing"},
		{File: "a/dossier.yaml", Line: 3, Message: "YAML syntax error: x"},
	}
	want := "a/dossier.yaml:42 architecture.edges[1].to: unknown node \"wrker\"\n" +
		"a/repo/package.json: missing\n" +
		"a/dossier.yaml:3: YAML syntax error: x"
	if got := ps.Error(); got != want {
		t.Errorf("Error() =\n%s\nwant\n%s", got, want)
	}
	if got := ps.Detailed(); !strings.Contains(got, "    fix: did you mean\n") {
		t.Errorf("Detailed() = %q", got)
	}
}
