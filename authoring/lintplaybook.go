package authoring

import (
	"fmt"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/racecase/racecase/challenges"
)

// copiedRun is how many consecutive words a public phrase may share with a
// playbook step before it counts as a copy of the fix.
const copiedRun = 6

// checkPlaybook reports a playbook that cannot do its job: a look-alike
// linking to a dossier no catalog has, and public text (what the catalog
// searches and shows before a pass) that gives the fix away by naming one
// of the playbook's fix terms, an identifier the reference fix brings in,
// or the words of one of its steps.
func (l *linter) checkPlaybook(slug string, d *challenges.Dossier, known map[string]bool, repo map[string][]byte) {
	file := path.Join(slug, challenges.DossierFile)
	for i, look := range d.Playbook.NotFor {
		if look.Dossier != "" && look.Dossier != slug && !known[look.Dossier] {
			l.add(file, fmt.Sprintf("playbook.not_for[%d].dossier", i),
				fmt.Sprintf("no dossier %q, here or built into racecase", look.Dossier),
				"name an existing dossier's slug, or remove the link and keep the look-alike's text")
		}
	}
	fixIdents := introducedIdentifiers(repo, l.solutionFiles(slug))
	for _, p := range d.PublicPhrases() {
		give := func(what string) {
			l.add(file, p.Field, fmt.Sprintf("public text gives the fix away: %s", what),
				"describe what engineers see, not what fixes it; public fields are shown and searched before a learner solves the dossier")
		}
		text := normalWords(p.Text)
		for _, term := range d.Playbook.FixTerms {
			if t := normalWords(term); t != "" && strings.Contains(" "+text+" ", " "+t+" ") {
				give(fmt.Sprintf("it uses %q, one of playbook.fix_terms", term))
			}
		}
		for _, id := range identifiers(p.Text) {
			if fixIdents[id] {
				give(fmt.Sprintf("it names %s, which the reference fix brings into the code", id))
			}
		}
		for i, s := range d.Playbook.Steps {
			if run := sharedRun(text, normalWords(s.Action)); run != "" {
				give(fmt.Sprintf("%q is copied from playbook.steps[%d]", run, i))
			}
		}
	}
}

// knownSlugs returns the slugs a look-alike may link to: the dossiers in
// the linted folder and those built into racecase, which serve beside them.
func (l *linter) knownSlugs() map[string]bool {
	known := map[string]bool{}
	for _, fsys := range []fs.FS{l.fsys, challenges.FS} {
		slugs, _ := challenges.Slugs(fsys) // an unlistable folder stops Lint before this
		for _, s := range slugs {
			known[s] = true
		}
	}
	return known
}

// identifierPattern matches identifiers that read as code rather than
// prose: camelCase (setIfAbsent) or snake_case (capture_in_progress).
var identifierPattern = regexp.MustCompile(`\b(?:[a-z][a-z0-9]*[A-Z][A-Za-z0-9]*|[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]*[A-Za-z0-9])\b`)

// identifiers returns the code-like identifiers in text.
func identifiers(text string) []string {
	return identifierPattern.FindAllString(text, -1)
}

// introducedIdentifiers returns the code-like identifiers that the
// reference fix's files use and the same files in repo/ do not: the names
// of what the fix adds (a store operation, a helper).
func introducedIdentifiers(repo, solution map[string][]byte) map[string]bool {
	out := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(solution)) {
		before := map[string]bool{}
		for _, id := range identifiers(string(repo[name])) {
			before[id] = true
		}
		for _, id := range identifiers(string(solution[name])) {
			if !before[id] {
				out[id] = true
			}
		}
	}
	return out
}

// normalWords lower-cases text and keeps only its words, single-spaced, so
// that "Set-If-Absent" and "set if absent" compare equal.
func normalWords(text string) string {
	return strings.Join(strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}), " ")
}

// sharedRun returns the first run of copiedRun consecutive words of a that
// b also has, or "".
func sharedRun(a, b string) string {
	aw, bText := strings.Fields(a), " "+b+" "
	for i := 0; i+copiedRun <= len(aw); i++ {
		if run := strings.Join(aw[i:i+copiedRun], " "); strings.Contains(bText, " "+run+" ") {
			return run
		}
	}
	return ""
}
