package challenges

import (
	"strings"
	"unicode"
)

// word is one word of a text: as written, and reduced to the stem that
// search compares.
type word struct {
	text string // as written, e.g. "Expired"
	stem string // lower case, common English endings removed, e.g. "expir"
}

// words splits text into its words: runs of letters and digits, so that
// "mid-batch" is two words and "job-7" is "job" and "7". A single letter
// joined by a hyphen stays one word ("e-mail" compares as "email"); other
// single letters are dropped.
func words(text string) []word {
	var out []word
	runes := []rune(text)
	for i := 0; i < len(runes); {
		if !isWordRune(runes[i]) {
			i++
			continue
		}
		j := i
		for j < len(runes) && (isWordRune(runes[j]) || (runes[j] == '-' && j == i+1 && unicode.IsLetter(runes[i]) && j+1 < len(runes) && unicode.IsLetter(runes[j+1]))) {
			j++
		}
		w := string(runes[i:j])
		if j-i > 1 || unicode.IsDigit(runes[i]) {
			out = append(out, word{text: w, stem: stem(strings.ReplaceAll(w, "-", ""))})
		}
		i = j
	}
	return out
}

// isWordRune reports whether r is part of a word.
func isWordRune(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// stopWords carry no meaning of their own in a search.
var stopWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(`a an the and or but nor of to in on at by for with from into onto
		is are was were be been being am it its this that these those then than as so if
		do does did has have had i we you they he she my our your their me us them there here
		when while which who whom what how why get got can could would should will just very`) {
		m[w] = true
	}
	return m
}()

// stem lower-cases a word and strips the common English endings, so that
// "expired", "expires" and "expire" compare equal, and "retries" and
// "retried" do too. It is deliberately simple: stems only need to agree
// with each other, not to be words.
func stem(w string) string {
	s := strings.ToLower(w)
	s = strings.TrimSuffix(s, "'s")
	n := len(s)
	switch {
	case n > 4 && strings.HasSuffix(s, "ies"):
		s = s[:n-3] + "i"
	case n > 4 && (strings.HasSuffix(s, "sses") || strings.HasSuffix(s, "ches") || strings.HasSuffix(s, "shes") || strings.HasSuffix(s, "xes")):
		s = s[:n-2]
	case n > 3 && strings.HasSuffix(s, "s") && !strings.HasSuffix(s, "ss") && !strings.HasSuffix(s, "us"):
		s = s[:n-1]
	}
	for _, suffix := range []string{"ing", "ed"} {
		if base := strings.TrimSuffix(s, suffix); base != s && len(base) >= 3 {
			s = undouble(base)
			break
		}
	}
	n = len(s)
	switch {
	case n > 3 && strings.HasSuffix(s, "y"):
		s = s[:n-1] + "i"
	case n > 3 && strings.HasSuffix(s, "e"):
		s = s[:n-1]
	}
	return s
}

// undouble turns "dropp" (from "dropped") into "drop"; "fall" and "pass" keep theirs.
func undouble(s string) string {
	n := len(s)
	if n >= 4 && s[n-1] == s[n-2] && !strings.ContainsRune("aeiouylsz", rune(s[n-1])) {
		return s[:n-1]
	}
	return s
}
