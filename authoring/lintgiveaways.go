package authoring

import (
	"fmt"
	"maps"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/racecase/racecase/challenges"
)

// quoteWords is how many words in a row a wrong turn may share with a
// secret field or a decoy's why.md before it counts as quoting them. Wrong
// turns are written from the decoys, so they are held closest.
const quoteWords = 8

// panelQuoteWords is the same for every other public field: the panels,
// hints and playbook phrases describe the same bug as the secret text, in
// the same words, so only a longer run counts as a copy.
const panelQuoteWords = 10

// fixLineWords is the fewest words a line of the reference fix must have to
// be looked for in public fields; shorter lines (a brace, a return) say nothing.
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

// answerGiveaways is what a public field must never contain: the reference
// fix's own lines and identifiers, runs of words from the secret fields and
// the decoys' why.md, and the correct hypothesis.
type answerGiveaways struct {
	fixLines    map[string]string // words of a fix line → the line and its file
	fixIdents   map[string]string // an identifier only the fix has → its file
	sources     []quoteSource     // the secret texts and why.md, in runs of words
	printed     []string          // public facts as joined words: the evidence, and what the suite prints
	hypothesis  string            // the correct hypothesis's id
	titleWords  string            // its title, as joined words
	titleString string
}

// giveawaysOf collects what a dossier's public fields must not contain.
// What the evidence panels say, and the suite's string literals (test
// names, messages, shown with run results), is public already: text
// repeated from them gives nothing away, even when a secret text repeats it
// too.
func (l *linter) giveawaysOf(d *challenges.Dossier, suite []byte) (*answerGiveaways, error) {
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
	g := &answerGiveaways{fixLines: map[string]string{}, fixIdents: map[string]string{},
		hypothesis: d.Secret.CorrectHypothesis, printed: suiteStrings(suite)}
	var repoText strings.Builder
	paths := map[string]bool{} // a line that only names a file says nothing of the fix
	for name, data := range repo {
		repoText.Write(data)
		paths[joined(words(name))] = true
	}
	for name := range fixed {
		paths[joined(words(name))] = true
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
			if ws := words(line); len(ws) >= fixLineWords && !paths[joined(ws)] {
				g.fixLines[joined(ws)] = fmt.Sprintf("%q (solution/%s)", line, file)
			}
			for _, id := range identPattern.FindAllString(line, -1) {
				if codeLike(id) && !strings.Contains(repoText.String(), id) {
					g.fixIdents[id] = "solution/" + file
				}
			}
		}
	}
	texts, err := d.FieldTexts()
	if err != nil {
		return nil, err
	}
	for _, t := range texts {
		switch {
		case strings.HasPrefix(t.Field, "secret."):
			g.addQuotes(t.Text, t.Field)
		case t.Visibility == challenges.VisibilityPublic && evidence(t.Field):
			g.printed = append(g.printed, joined(words(t.Text)))
		}
	}
	for _, panel := range d.Logs {
		for _, line := range panel.Lines {
			g.printed = append(g.printed, joined(words(line)))
		}
	}
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

// quoteSource is a piece of secret text, as words, and where it is from.
type quoteSource struct {
	words []string
	where string
}

// quotation matches a passage in quotation marks: what a why.md or the
// explanation quotes (the evidence, a learner's reasoning) is not theirs.
var quotation = regexp.MustCompile(`"[^"]{0,400}"|“[^”]*”`)

// addQuotes records text, from where, as a source of runs of words; its
// passages in quotation marks are left out, and no run spans one.
func (g *answerGiveaways) addQuotes(text, where string) {
	for _, part := range quotation.Split(text, -1) {
		if ws := words(part); len(ws) > 0 {
			g.sources = append(g.sources, quoteSource{words: ws, where: where})
		}
	}
}

// quoted returns the first run of n words of ws that a source has and no
// public fact holds, and where it is from; "" when there is none.
func (g *answerGiveaways) quoted(ws []string, n int) (run, where string) {
	runs := map[string]string{}
	for _, src := range g.sources {
		for i := 0; i+n <= len(src.words); i++ {
			if r := joined(src.words[i : i+n]); runs[r] == "" {
				runs[r] = src.where
			}
		}
	}
	for i := 0; i+n <= len(ws); i++ {
		r := joined(ws[i : i+n])
		if where, ok := runs[r]; ok && !slices.ContainsFunc(g.printed, func(p string) bool { return strings.Contains(p, r) }) {
			return strings.TrimSpace(r), where
		}
	}
	return "", ""
}

// suiteLiteral matches a string literal of JavaScript in quotes.
var suiteLiteral = regexp.MustCompile(`'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"|` + "`[^`]*`")

// suiteStrings returns the suite's string literals as joined words.
func suiteStrings(suite []byte) []string {
	var out []string
	for _, lit := range suiteLiteral.FindAllString(string(suite), -1) {
		if ws := words(lit); len(ws) > 0 {
			out = append(out, joined(ws))
		}
	}
	return out
}

// find says what a public field's text gives away, or "" when nothing,
// holding it as closely as strict: how many words in a row it may share with
// a source, and which of the correct hypothesis's title and id it may not
// name.
func (g *answerGiveaways) find(text string, strict strictness) string {
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
	if run, where := g.quoted(ws, strict.words); run != "" {
		return fmt.Sprintf("repeats %q from %s", run, where)
	}
	if strict.title && g.titleString != "" && strings.Contains(all, g.titleWords) {
		return fmt.Sprintf("names the correct hypothesis, %q", g.titleString)
	}
	if strict.id && g.hypothesis != "" && regexp.MustCompile(`(^|[^a-z0-9-])`+regexp.QuoteMeta(g.hypothesis)+`($|[^a-z0-9-])`).MatchString(strings.ToLower(text)) {
		return fmt.Sprintf("names the correct hypothesis's id, %q", g.hypothesis)
	}
	return ""
}

// evidencePrefixes are the fields of the evidence panels: the facts of the
// incident as the learner meets it.
var evidencePrefixes = []string{"incident.", "architecture.", "logs[", "metrics[", "changes[", "hypotheses["}

// evidence reports whether field is part of an evidence panel.
func evidence(field string) bool {
	return slices.ContainsFunc(evidencePrefixes, func(p string) bool { return strings.HasPrefix(field, p) })
}

// strictness is how closely a public field is held (see find).
type strictness struct {
	words     int  // the run of words it may not share with a source
	title, id bool // whether it may not name the correct hypothesis's title, its id
}

// strictnessOf returns how closely the public field is held: wrong turns
// most (they are written from the decoys, and a hypothesis's id there names
// the answer), the hypotheses least (they name every answer).
func strictnessOf(field string) strictness {
	switch {
	case strings.HasPrefix(field, "wrong_turns["):
		return strictness{words: quoteWords, title: true, id: true}
	case strings.HasPrefix(field, "hypotheses["):
		return strictness{words: panelQuoteWords}
	}
	return strictness{words: panelQuoteWords, title: true}
}

// checkPublicFields reports every public field of d (the schema's
// x-visibility) whose text gives the answer away: a line or identifier of
// the reference fix, a run of words from a secret field or a decoy's
// why.md, or, outside the hypotheses, the correct hypothesis. A
// field already reported for giving the fix away is not reported twice.
func (l *linter) checkPublicFields(slug string, d *challenges.Dossier) {
	suite, _ := l.suiteText(slug) // checkHidden reports a missing suite
	g, err := l.giveawaysOf(d, []byte(suite))
	if err != nil {
		return // loading reports unreadable folders
	}
	texts, err := d.FieldTexts()
	if err != nil {
		return
	}
	file := path.Join(slug, challenges.DossierFile)
	for _, t := range texts {
		if t.Visibility != challenges.VisibilityPublic || l.reported(file, t.Field) {
			continue
		}
		if what := g.find(t.Text, strictnessOf(t.Field)); what != "" {
			l.add(file, t.Field, "learners read this public field before solving, and it "+what,
				"say it in your own words, without the fix or the answer: public fields (x-visibility in the schema) are served before a passing submission")
		}
	}
}
