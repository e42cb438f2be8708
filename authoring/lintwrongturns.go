package authoring

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
)

// checkWrongTurns reports wrong turns that name a test the hidden suite does
// not have: they could never be shown. Whether their text gives the answer
// away is checkPublicFields', as for every public field.
func (l *linter) checkWrongTurns(slug string, d *challenges.Dossier) {
	if d == nil || len(d.WrongTurns) == 0 {
		return
	}
	file := path.Join(slug, challenges.DossierFile)
	source, found := l.suiteText(slug)
	for i, w := range d.WrongTurns {
		for list, names := range map[string][]string{"tests": w.Tests, "passes": w.Passes} {
			for j, name := range names {
				if found && !quotedIn(source, name) {
					l.add(file, fmt.Sprintf("wrong_turns[%d].%s[%d]", i, list, j),
						fmt.Sprintf("the hidden suite has no test named %q, so this wrong turn is never shown", name),
						"copy the test's name from hidden_tests/"+slug+"/"+hiddentests.SuiteFile+" or a file it imports")
				}
			}
		}
	}
}

// quotedIn reports whether source holds name as a quoted string literal,
// its own quote marks escaped.
func quotedIn(source, name string) bool {
	for _, q := range []string{`'`, `"`, "`"} {
		if strings.Contains(source, q+strings.ReplaceAll(name, q, `\`+q)+q) {
			return true
		}
	}
	return false
}

// suiteText is every file of a dossier's hidden suite, one after another in
// name order; found is false when it has none (checkHidden reports that).
func (l *linter) suiteText(slug string) (text string, found bool) {
	files, err := hiddentests.SourcesFrom(l.hidden, slug)
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(files)) {
		b.Write(files[name])
		b.WriteByte('\n')
	}
	return b.String(), err == nil
}
