package challenges

import (
	"fmt"
	"strings"
	"unicode"
)

// Kinds of public phrase, as the catalog labels a match.
const (
	// PhraseTitle is the dossier's title.
	PhraseTitle = "title"
	// PhraseSummary is a sentence of the card text.
	PhraseSummary = "summary"
	// PhraseSignal is the incident's initial failing signal.
	PhraseSignal = "signal"
	// PhraseSymptom is a sentence of the customer symptom.
	PhraseSymptom = "symptom"
	// PhraseError is a line of the playbook's error as an engineer sees it.
	PhraseError = "error"
	// PhraseVariant is one of the playbook's variant phrasings.
	PhraseVariant = "variant_phrasing"
)

// Phrase is a piece of a dossier's public text that the catalog search
// matches and shows, and that must not give the fix away.
type Phrase struct {
	// Kind is what the phrase is: PhraseTitle, PhraseSummary, …
	Kind string
	// Field is the dossier field it comes from, e.g. "playbook.variant_phrasings[2]".
	Field string
	// Text is the phrase: a whole short field, or one sentence or line of a long one.
	Text string
}

// PublicPhrases returns the public texts people find a dossier by: its
// title, the sentences of its summary and symptom, its signal, the lines of
// its playbook's error, and its variant phrasings.
func (d *Dossier) PublicPhrases() []Phrase {
	out := []Phrase{{Kind: PhraseTitle, Field: "title", Text: d.Title}}
	add := func(kind, field string, parts []string) {
		for _, p := range parts {
			out = append(out, Phrase{Kind: kind, Field: field, Text: p})
		}
	}
	add(PhraseSignal, "incident.signal", []string{d.Incident.Signal})
	add(PhraseSymptom, "incident.symptom", sentences(d.Incident.Symptom))
	add(PhraseError, "playbook.error", lines(d.Playbook.Error))
	for i, v := range d.Playbook.VariantPhrasings {
		add(PhraseVariant, fmt.Sprintf("playbook.variant_phrasings[%d]", i), []string{v})
	}
	add(PhraseSummary, "summary", sentences(d.Summary))
	return out
}

// lines returns the non-blank lines of text, trimmed.
func lines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// sentences cuts text into sentences: after ".", "!" or "?" followed by a
// space and an upper-case letter, so that "1.5 s" and "e.g. this" stay whole.
func sentences(text string) []string {
	text = strings.Join(strings.Fields(text), " ")
	var out []string
	runes := []rune(text)
	start := 0
	for i := 0; i+2 < len(runes); i++ {
		if strings.ContainsRune(".!?", runes[i]) && runes[i+1] == ' ' && unicode.IsUpper(runes[i+2]) {
			out = append(out, string(runes[start:i+1]))
			start = i + 2
		}
	}
	if rest := strings.TrimSpace(string(runes[start:])); rest != "" {
		out = append(out, rest)
	}
	return out
}
