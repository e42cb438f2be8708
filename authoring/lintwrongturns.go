package authoring

import (
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
)

// quoteWords is how many words in a row a wrong turn may share with the
// secret explanation or a decoy's why.md before it counts as quoting them.
const quoteWords = 8

// fixLineWords is the fewest words a line of the reference fix must have to
// be looked for in wrong turns; shorter lines (a brace, a return) say nothing.
const fixLineWords = 4

// wordPattern splits text into words: letters and digits, case folded.
var wordPattern = regexp.MustCompile(`[a-z0-9]+`)

// identPattern finds words of code that prose would not use by chance:
// camelCase, snake_case or $-names of at least six characters.
var identPattern = regexp.MustCompile(`[A-Za-z_$][A-Za-z0-9_$]{5,}`)

// camelCase finds a lower-case letter followed by a capital.
var camelCase = regexp.MustCompile(`[a-z][A-Z]`)

// codeLike reports whether a word found by identPattern looks like code.
func codeLike(id string) bool {
	return strings.ContainsAny(id, "_$") || camelCase.MatchString(id)
}

// mentions reports whether text uses the identifier id as a whole word.
func mentions(text, id string) bool {
	return regexp.MustCompile(`(^|[^A-Za-z0-9_$])` + regexp.QuoteMeta(id) + `($|[^A-Za-z0-9_$])`).MatchString(text)
}

// words returns the lower-case words of text.
func words(text string) []string {
	return wordPattern.FindAllString(strings.ToLower(text), -1)
}

// joined is a run of words as one string with single spaces around each
// word, so that containment is word-aligned.
func joined(ws []string) string {
	return " " + strings.Join(ws, " ") + " "
}

// answerGiveaways is what a wrong turn must never contain: the reference
// fix's own lines and identifiers, runs of words from the secret explanation
// and the decoys' why.md, and the correct hypothesis.
type answerGiveaways struct {
	fixLines    map[string]string // words of a fix line → the line and its file
	fixIdents   map[string]string // an identifier only the fix has → its file
	quoted      map[string]string // a run of quoteWords words → where it is from
	hypothesis  string            // the correct hypothesis's id
	titleWords  string            // its title, as joined words
	titleString string
}

// giveawaysOf collects what a dossier's wrong turns must not contain.
func (l *linter) giveawaysOf(d *challenges.Dossier) (*answerGiveaways, error) {
	repo, err := d.RepoFiles(l.fsys)
	if err != nil {
		return nil, err
	}
	fixed, err := d.SolutionFiles(l.fsys)
	if err != nil {
		return nil, err
	}
	decoys, err := d.Decoys(l.fsys)
	if err != nil {
		return nil, err
	}
	g := &answerGiveaways{fixLines: map[string]string{}, fixIdents: map[string]string{}, quoted: map[string]string{},
		hypothesis: d.Secret.CorrectHypothesis}
	var repoText strings.Builder
	for _, data := range repo {
		repoText.Write(data)
	}
	for _, file := range slices.Sorted(maps.Keys(fixed)) {
		if string(fixed[file]) == string(repo[file]) {
			continue
		}
		before := map[string]bool{}
		for _, line := range strings.Split(string(repo[file]), "\n") {
			before[strings.TrimSpace(line)] = true
		}
		for _, line := range strings.Split(string(fixed[file]), "\n") {
			line = strings.TrimSpace(line)
			if before[line] {
				continue
			}
			if ws := words(line); len(ws) >= fixLineWords {
				g.fixLines[joined(ws)] = fmt.Sprintf("%q (solution/%s)", line, file)
			}
			for _, id := range identPattern.FindAllString(line, -1) {
				if codeLike(id) && !strings.Contains(repoText.String(), id) {
					g.fixIdents[id] = "solution/" + file
				}
			}
		}
	}
	g.addQuotes(d.Secret.Explanation, "secret.explanation")
	for _, decoy := range decoys {
		g.addQuotes(decoy.Why, path.Join(challenges.DecoysDir, decoy.Name, challenges.WhyFile))
	}
	for _, h := range d.Hypotheses {
		if h.ID == d.Secret.CorrectHypothesis {
			g.titleWords, g.titleString = joined(words(h.Title)), h.Title
		}
	}
	return g, nil
}

// addQuotes records every run of quoteWords words of text, from where.
func (g *answerGiveaways) addQuotes(text, where string) {
	ws := words(text)
	for i := 0; i+quoteWords <= len(ws); i++ {
		run := joined(ws[i : i+quoteWords])
		if _, ok := g.quoted[run]; !ok {
			g.quoted[run] = where
		}
	}
}

// find says what a wrong turn's text gives away, or "" when nothing.
func (g *answerGiveaways) find(text string) string {
	ws := words(text)
	all := joined(ws)
	for _, run := range slices.Sorted(maps.Keys(g.fixLines)) {
		if strings.Contains(all, run) {
			return "quotes the reference fix: " + g.fixLines[run]
		}
	}
	for _, id := range slices.Sorted(maps.Keys(g.fixIdents)) {
		if mentions(text, id) {
			return fmt.Sprintf("names %s, which only the reference fix has (%s)", id, g.fixIdents[id])
		}
	}
	for i := 0; i+quoteWords <= len(ws); i++ {
		if where, ok := g.quoted[joined(ws[i:i+quoteWords])]; ok {
			return fmt.Sprintf("repeats %q from %s", strings.Join(ws[i:i+quoteWords], " "), where)
		}
	}
	if g.titleString != "" && strings.Contains(all, g.titleWords) {
		return fmt.Sprintf("names the correct hypothesis, %q", g.titleString)
	}
	if g.hypothesis != "" && regexp.MustCompile(`(^|[^a-z0-9-])`+regexp.QuoteMeta(g.hypothesis)+`($|[^a-z0-9-])`).MatchString(strings.ToLower(text)) {
		return fmt.Sprintf("names the correct hypothesis's id, %q", g.hypothesis)
	}
	return ""
}

// checkWrongTurns reports wrong turns that name a test the hidden suite does
// not have (they could never be shown), or whose text gives the answer away:
// a line or identifier of the reference fix, a run of words from the secret
// explanation or a decoy's why.md, or the correct hypothesis.
func (l *linter) checkWrongTurns(slug string, d *challenges.Dossier) {
	if d == nil || len(d.WrongTurns) == 0 {
		return
	}
	file := path.Join(slug, challenges.DossierFile)
	suite, err := hiddentests.SuiteFrom(l.hidden, slug)
	source := string(suite[hiddentests.SuiteFile])
	for i, w := range d.WrongTurns {
		for list, names := range map[string][]string{"tests": w.Tests, "passes": w.Passes} {
			for j, name := range names {
				if err == nil && !quotedIn(source, name) {
					l.add(file, fmt.Sprintf("wrong_turns[%d].%s[%d]", i, list, j),
						fmt.Sprintf("the hidden suite has no test named %q, so this wrong turn is never shown", name),
						"copy the test's name from hidden_tests/"+slug+"/"+hiddentests.SuiteFile)
				}
			}
		}
	}
	g, err := l.giveawaysOf(d)
	if err != nil {
		return // loading reports unreadable folders
	}
	for i, w := range d.WrongTurns {
		for field, text := range map[string]string{"looks_like": w.LooksLike, "why_it_fails": w.WhyItFails, "look_at": w.LookAt} {
			if what := g.find(text); what != "" {
				l.add(file, fmt.Sprintf("wrong_turns[%d].%s", i, field), "a learner reads this before solving, and it "+what,
					"say why the wrong fix fails and where to look, in your own words, without the fix or the answer")
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
