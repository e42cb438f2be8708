package challenges

import (
	"encoding/json"
	"strings"
	"testing"
)

const sourceBlock = `source:
  url: https://git.example.com/shop/worker.git
  ref: v2.4.0
  commit: 4b825dc642cb6eb9a060e54bf8d69288fbee4904
  path: services/worker
`

func TestSourceLoadsAndStaysSecret(t *testing.T) {
	m := fixtureFS(t)
	editYAML(t, m, "secret:\n", sourceBlock+"secret:\n")
	d, err := Load(m, fixture)
	if err != nil {
		t.Fatal(err)
	}
	want := Source{URL: "https://git.example.com/shop/worker.git", Ref: "v2.4.0", Commit: "4b825dc642cb6eb9a060e54bf8d69288fbee4904", Path: "services/worker"}
	if d.Source == nil || *d.Source != want {
		t.Fatalf("Source = %+v, want %+v", d.Source, want)
	}
	data, err := json.Marshal(d.Public())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(data), "git.example.com") || strings.Contains(string(data), want.Commit) {
		t.Errorf("Public() shows where repo/ came from: %s", data)
	}
}

func TestBrokenSource(t *testing.T) {
	for _, tc := range []struct {
		name, old, new, field, message string
	}{
		{"short commit", "commit: 4b825dc642cb6eb9a060e54bf8d69288fbee4904", "commit: 4b825dc", "source.commit", "not in the expected form"},
		{"no commit", "  commit: 4b825dc642cb6eb9a060e54bf8d69288fbee4904\n", "", "source.commit", "missing required field"},
		{"path leaves the repository", "path: services/worker", "path: services/../../etc", "source.path", "not a clean relative path"},
		{"unknown field", "  ref: v2.4.0\n", "  branch: main\n", "source.branch", `unknown field "branch"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := fixtureFS(t)
			editYAML(t, m, "secret:\n", strings.Replace(sourceBlock, tc.old, tc.new, 1)+"secret:\n")
			ps := loadProblems(t, m)
			for _, p := range ps {
				if p.Field == tc.field && strings.Contains(p.Message, tc.message) && p.Line > 0 {
					return
				}
			}
			t.Errorf("no problem at %s saying %q with a line:\n%s", tc.field, tc.message, ps.Detailed())
		})
	}
}

func TestSlugsListsBrokenDossiersToo(t *testing.T) {
	m := fixtureFS(t)
	m["broken/dossier.yaml"] = m[fixture+"/dossier.yaml"]
	m["no-yaml/repo/README.md"] = m[fixture+"/repo/README.md"]
	m["_drafts/dossier.yaml"] = m[fixture+"/dossier.yaml"]
	slugs, err := Slugs(m)
	if err != nil || strings.Join(slugs, " ") != "broken "+fixture {
		t.Fatalf("Slugs = %v, %v; want [broken %s]", slugs, err, fixture)
	}
}

func TestValidSlug(t *testing.T) {
	for slug, want := range map[string]bool{
		"job-lock-double-send": true, "a1": true, "": false, "Job": false, "a--b": false,
		"-a": false, "a_b": false, strings.Repeat("a", 65): false,
	} {
		if got := ValidSlug(slug); got != want {
			t.Errorf("ValidSlug(%q) = %v, want %v", slug, got, want)
		}
	}
}
