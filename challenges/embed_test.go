package challenges

import (
	"encoding/json"
	"io/fs"
	"os"
	"strings"
	"testing"
)

// TestEmbeddedDossiers is the content gate: every dossier built into the
// binary loads without a single problem.
func TestEmbeddedDossiers(t *testing.T) {
	ds, err := LoadAll(FS)
	if err != nil {
		t.Fatalf("embedded dossiers have problems:\n%s", err.(Problems).Detailed())
	}
	if len(ds) == 0 {
		t.Fatal("no dossier is embedded")
	}
	for _, d := range ds {
		t.Logf("%s: %d repo files, %d hints, %d log panels", d.Slug, d.RepoScale.MeaningfulFiles, len(d.Hints), len(d.Logs))
		data, err := json.Marshal(d.Public())
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range append([]string{d.Secret.Explanation}, hintTexts(d)...) {
			if strings.Contains(string(data), secret) {
				t.Errorf("%s: Public() shows secret text %.40q…", d.Slug, secret)
			}
		}
	}
}

// TestEmbedMatchesDisk checks that embedding drops no file of a dossier (for
// example a dot file in repo/).
func TestEmbedMatchesDisk(t *testing.T) {
	disk := os.DirFS(".")
	entries, err := fs.ReadDir(disk, ".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		onDisk, _, err := walkFiles(disk, e.Name())
		if err != nil {
			t.Fatal(err)
		}
		embedded, _, err := walkFiles(FS, e.Name())
		if err != nil {
			t.Fatalf("%s: %v", e.Name(), err)
		}
		for p := range onDisk {
			if _, ok := embedded[p]; !ok {
				t.Errorf("%s/%s is on disk but not embedded", e.Name(), p)
			}
		}
	}
}

func hintTexts(d *Dossier) []string {
	var texts []string
	for _, h := range d.Hints {
		texts = append(texts, h.Text)
	}
	return texts
}
