package challenges

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

func TestPublicHidesSecrets(t *testing.T) {
	d, err := Load(os.DirFS("testdata"), fixture)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(d.Public())
	if err != nil {
		t.Fatal(err)
	}
	text := string(data)
	for _, secret := range []string{
		"SECRET-EXPLANATION", "correct_hypothesis", `"secret"`, // the answer
		"HINT-TEXT", "Where does ownership begin?", // hint texts and titles
		"sleep-recheck", "setIfAbsent", "decoy", "solution", // overlays
	} {
		if strings.Contains(text, secret) {
			t.Errorf("Public() JSON contains %q:\n%s", secret, text)
		}
	}
	for _, public := range []string{`"hint_count":4`, `"lines":["09:00:01`, `"meaningful_files":4`, `"unit":"ms"`, `"readonly_files":["package.json"]`} {
		if !strings.Contains(text, public) {
			t.Errorf("Public() JSON lacks %s:\n%s", public, text)
		}
	}
}

func TestPublicCopiesSlices(t *testing.T) {
	d, err := Load(os.DirFS("testdata"), fixture)
	if err != nil {
		t.Fatal(err)
	}
	p := d.Public()
	p.Logs[0].Lines[0] = "changed"
	p.StartFiles[0] = "changed"
	if d.Logs[0].Lines[0] == "changed" || d.StartFiles[0] == "changed" {
		t.Error("Public() shares slices with the dossier")
	}
}
