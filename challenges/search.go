package challenges

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// MaxQueryLength is the longest search query, in characters.
const MaxQueryLength = 400

// Index finds dossiers by symptom: it ranks them by how well a query
// matches their public phrases (never a secret), tolerating typos and
// unfinished words. It is immutable and safe for concurrent use.
type Index struct {
	dossiers []indexed
}

// indexed is one dossier's phrases, split into words.
type indexed struct {
	slug    string
	phrases []indexedPhrase
}

// indexedPhrase is a phrase with its words and how much a match in it counts.
type indexedPhrase struct {
	Phrase
	words  []word
	weight float64
}

// kindWeight is how much a match counts in each kind of phrase: the words
// people search with (titles, errors, variant phrasings) count most.
var kindWeight = map[string]float64{
	PhraseTitle: 1, PhraseError: 1, PhraseVariant: 1,
	PhraseSignal: 0.9, PhraseSymptom: 0.8, PhraseSummary: 0.7,
}

// NewIndex indexes the public phrases of ds.
func NewIndex(ds []*Dossier) *Index {
	ix := &Index{}
	for _, d := range ds {
		in := indexed{slug: d.Slug}
		for _, p := range d.PublicPhrases() {
			in.phrases = append(in.phrases, indexedPhrase{Phrase: p, words: words(p.Text), weight: kindWeight[p.Kind]})
		}
		ix.dossiers = append(ix.dossiers, in)
	}
	return ix
}

// Hit is a dossier that matches a query.
type Hit struct {
	// Slug names the dossier.
	Slug string
	// Score says how well it matches; higher is better.
	Score float64
	// Match is the phrase that matched best.
	Match Match
}

// Match is the public phrase a query matched, to show beside the dossier.
type Match struct {
	// Kind is what the phrase is (PhraseTitle, PhraseVariant, …).
	Kind string `json:"kind"`
	// Text is the phrase.
	Text string `json:"text"`
	// Words are the words of Text that matched the query, as written there.
	Words []string `json:"words"`
}

// Search returns the dossiers that match q, best first (ties by slug). A
// query with no searchable word matches nothing.
func (ix *Index) Search(q string) []Hit {
	terms := queryTerms(q)
	if len(terms) == 0 {
		return nil
	}
	idf := ix.idf(terms)
	var hits []Hit
	for _, d := range ix.dossiers {
		if h, ok := d.score(terms, idf); ok {
			hits = append(hits, h)
		}
	}
	slices.SortFunc(hits, func(a, b Hit) int {
		if c := cmp.Compare(b.Score, a.Score); c != 0 {
			return c
		}
		return strings.Compare(a.Slug, b.Slug)
	})
	return hits
}

// ValidQuery reports whether q is short enough to search with.
func ValidQuery(q string) bool { return utf8.RuneCountInString(q) <= MaxQueryLength }

// queryTerms returns the stems of q's words, without stop words or repeats.
func queryTerms(q string) []string {
	var terms []string
	for _, w := range words(q) {
		if stopWords[strings.ToLower(w.text)] || slices.Contains(terms, w.stem) {
			continue
		}
		terms = append(terms, w.stem)
	}
	return terms
}

// idf weighs each term by how few dossiers it matches at all, so that a
// word every dossier uses ("workers") counts less than one that only the
// right dossier uses ("shard").
func (ix *Index) idf(terms []string) []float64 {
	n := float64(len(ix.dossiers))
	out := make([]float64, len(terms))
	for i, t := range terms {
		df := 0.0
		for _, d := range ix.dossiers {
			if slices.ContainsFunc(d.phrases, func(p indexedPhrase) bool { return bestSimilarity(t, p.words) > 0 }) {
				df++
			}
		}
		out[i] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	return out
}

// spread is how much matches elsewhere in the dossier add to its best phrase.
const spread = 0.3

// score rates the dossier: its best phrase, plus a share of how well the
// query's terms are found anywhere in its public text.
func (d indexed) score(terms []string, idf []float64) (Hit, bool) {
	best, bestScore := -1, 0.0
	anywhere := make([]float64, len(terms))
	for i, p := range d.phrases {
		s := 0.0
		for j, t := range terms {
			sim := bestSimilarity(t, p.words)
			s += idf[j] * sim
			anywhere[j] = max(anywhere[j], sim)
		}
		if s *= p.weight; s > bestScore {
			best, bestScore = i, s
		}
	}
	if best < 0 {
		return Hit{}, false
	}
	total := 0.0
	for j := range terms {
		total += idf[j] * anywhere[j]
	}
	p := d.phrases[best]
	return Hit{Slug: d.slug, Score: bestScore + spread*total, Match: Match{Kind: p.Kind, Text: p.Text, Words: matchedWords(terms, p.words)}}, true
}

// bestSimilarity is how closely the term matches its closest word.
func bestSimilarity(term string, ws []word) float64 {
	best := 0.0
	for _, w := range ws {
		best = max(best, similarity(term, w.stem))
	}
	return best
}

// similarity is 1 for the same stem, less for a word the term begins (a
// query typed halfway), a stem that differs only in its ending ("expiri"
// from "expiry" and "expir"), or one a typo or two away; 0 otherwise.
func similarity(term, stem string) float64 {
	switch {
	case term == stem:
		return 1
	case len(term) >= 3 && strings.HasPrefix(stem, term):
		return 0.8
	case len(stem) >= 4 && strings.HasPrefix(term, stem) && len(term)-len(stem) <= 2:
		return 0.8
	}
	allowed := typosAllowed(term)
	if allowed == 0 || abs(len(term)-len(stem)) > allowed {
		return 0
	}
	switch editDistance(term, stem) {
	case 1:
		return 0.7
	case 2:
		if allowed >= 2 {
			return 0.5
		}
	}
	return 0
}

// typosAllowed is how many typos a term may have: none in short words
// ("lock" is not "look") and numbers, one in stems of five to eight
// letters, two in longer ones.
func typosAllowed(term string) int {
	switch {
	case strings.ContainsAny(term, "0123456789") || len(term) < 5:
		return 0
	case len(term) < 9:
		return 1
	}
	return 2
}

// abs is the absolute value of n.
func abs(n int) int { return max(n, -n) }

// matchedWords returns the words, as written, that some term matches.
func matchedWords(terms []string, ws []word) []string {
	out := []string{}
	for _, w := range ws {
		if slices.ContainsFunc(terms, func(t string) bool { return similarity(t, w.stem) > 0 }) && !slices.Contains(out, w.text) {
			out = append(out, w.text)
		}
	}
	return out
}
