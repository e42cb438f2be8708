package challenges

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// jsKind is the kind of a JavaScript token.
type jsKind int

const (
	jsIdent    jsKind = iota // identifiers and keywords, #private names included
	jsNumber                 // numeric literals
	jsString                 // '…' and "…"
	jsTemplate               // a whole template literal, substitutions included
	jsRegex                  // a regular expression literal
	jsPunct                  // operators and punctuation
)

// jsToken is one token of a JavaScript source: its text, its byte offsets and
// the 1-based line it starts on. Comments and white space are not tokens; nl
// says whether a line break comes before the token.
type jsToken struct {
	kind       jsKind
	text       string
	start, end int
	line       int
	nl         bool
}

// jsPunctuators are the punctuators, longest first so the longest match wins.
var jsPunctuators = []string{
	">>>=", "...", "===", "!==", "**=", "<<=", ">>=", ">>>", "&&=", "||=", "??=",
	"=>", "==", "!=", "<=", ">=", "&&", "||", "??", "?.", "++", "--", "+=", "-=", "*=",
	"/=", "%=", "&=", "|=", "^=", "**", "<<", ">>",
	"{", "}", "(", ")", "[", "]", ";", ",", "<", ">", "+", "-", "*", "/", "%", "&", "|",
	"^", "!", "~", "?", ":", "=", ".", "@",
}

// regexAfterWord are the keywords after which a slash starts a regular
// expression rather than a division.
var regexAfterWord = map[string]bool{
	"return": true, "typeof": true, "case": true, "do": true, "else": true, "in": true, "of": true,
	"new": true, "delete": true, "void": true, "throw": true, "instanceof": true, "yield": true, "await": true,
}

// tokenizeJS splits a JavaScript source into tokens. It knows the lexical
// grammar well enough to find every string, template, regular expression and
// comment, which is all the mutation operators need: they change tokens and
// statements, and every mutant is then parsed by a real JavaScript engine.
func tokenizeJS(src string) ([]jsToken, error) {
	var toks []jsToken
	line, nl := 1, true
	for i := 0; i < len(src); {
		c := src[i]
		switch {
		case c == '\n':
			line++
			nl = true
			i++
			continue
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			i++
			continue
		case strings.HasPrefix(src[i:], "//") || (i == 0 && strings.HasPrefix(src, "#!")):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			continue
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, fmt.Errorf("line %d: unterminated comment", line)
			}
			body := src[i : i+2+end+2]
			if n := strings.Count(body, "\n"); n > 0 {
				line += n
				nl = true
			}
			i += len(body)
			continue
		}
		r, size := utf8.DecodeRuneInString(src[i:])
		if r == '\u2028' || r == '\u2029' || r == '\u00a0' || r == '\ufeff' || unicode.IsSpace(r) {
			i += size
			continue
		}
		tok := jsToken{start: i, line: line, nl: nl}
		var err error
		switch {
		case c == '"' || c == '\'':
			tok.kind = jsString
			i, err = scanQuoted(src, i)
		case c == '`':
			tok.kind = jsTemplate
			i, err = scanTemplate(src, i)
		case isDigit(c) || (c == '.' && i+1 < len(src) && isDigit(src[i+1])):
			tok.kind = jsNumber
			i = scanNumber(src, i)
		case c == '#' || c == '$' || c == '_' || c == '\\' || unicode.IsLetter(r):
			tok.kind = jsIdent
			i = scanIdent(src, i+size)
		case c == '/' && slashStartsRegex(toks):
			tok.kind = jsRegex
			i, err = scanRegex(src, i)
		default:
			tok.kind = jsPunct
			p := matchPunct(src[i:])
			if p == "" {
				return nil, fmt.Errorf("line %d: unexpected character %q", line, r)
			}
			i += len(p)
		}
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", line, err)
		}
		tok.end = i
		tok.text = src[tok.start:i]
		line += strings.Count(tok.text, "\n")
		toks = append(toks, tok)
		nl = false
	}
	return toks, nil
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// matchPunct returns the longest punctuator s starts with; "?." followed by
// a digit is the conditional operator before a number.
func matchPunct(s string) string {
	for _, p := range jsPunctuators {
		if strings.HasPrefix(s, p) {
			if p == "?." && len(s) > 2 && isDigit(s[2]) {
				return "?"
			}
			return p
		}
	}
	return ""
}

// slashStartsRegex says whether a slash after toks starts a regular expression.
func slashStartsRegex(toks []jsToken) bool {
	if len(toks) == 0 {
		return true
	}
	prev := toks[len(toks)-1]
	switch prev.kind {
	case jsIdent:
		return regexAfterWord[prev.text]
	case jsPunct:
		return prev.text != ")" && prev.text != "]" && prev.text != "}"
	}
	return false
}

func scanQuoted(src string, i int) (int, error) {
	quote := src[i]
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case quote:
			return i + 1, nil
		case '\n':
			return i, fmt.Errorf("unterminated string")
		}
	}
	return i, fmt.Errorf("unterminated string")
}

// scanTemplate scans a template literal, with its substitutions, which may
// hold strings, templates and braces of their own.
func scanTemplate(src string, i int) (int, error) {
	for i++; i < len(src); i++ {
		switch {
		case src[i] == '\\':
			i++
		case src[i] == '`':
			return i + 1, nil
		case strings.HasPrefix(src[i:], "${"):
			end, err := scanSubstitution(src, i+2)
			if err != nil {
				return end, err
			}
			i = end - 1
		}
	}
	return i, fmt.Errorf("unterminated template literal")
}

// scanSubstitution scans from inside "${" to just past its closing brace.
func scanSubstitution(src string, i int) (int, error) {
	depth := 1
	for i < len(src) {
		var err error
		switch c := src[i]; {
		case c == '{':
			depth++
			i++
		case c == '}':
			depth--
			i++
			if depth == 0 {
				return i, nil
			}
		case c == '"' || c == '\'':
			i, err = scanQuoted(src, i)
		case c == '`':
			i, err = scanTemplate(src, i)
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return len(src), fmt.Errorf("unterminated comment")
			}
			i += 2 + end + 2
		default:
			i++
		}
		if err != nil {
			return i, err
		}
	}
	return i, fmt.Errorf("unterminated template substitution")
}

func scanNumber(src string, i int) int {
	for i < len(src) {
		c := src[i]
		switch {
		case isDigit(c) || c == '_' || c == '.' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'):
			i++
		case (c == '+' || c == '-') && (src[i-1] == 'e' || src[i-1] == 'E') && !strings.HasPrefix(strings.ToLower(src[:i]), "0x"):
			i++
		default:
			return i
		}
	}
	return i
}

func scanIdent(src string, i int) int {
	for i < len(src) {
		r, size := utf8.DecodeRuneInString(src[i:])
		if r == '$' || r == '_' || r == '\\' || r == '\u200c' || r == '\u200d' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r) || unicode.Is(unicode.Mc, r) || unicode.Is(unicode.Pc, r) {
			i += size
			continue
		}
		return i
	}
	return i
}

// scanRegex scans a regular expression literal with its flags; a slash
// inside a character class does not end it.
func scanRegex(src string, i int) (int, error) {
	inClass := false
	for i++; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '[':
			inClass = true
		case ']':
			inClass = false
		case '\n':
			return i, fmt.Errorf("unterminated regular expression")
		case '/':
			if !inClass {
				return scanIdent(src, i+1), nil
			}
		}
	}
	return i, fmt.Errorf("unterminated regular expression")
}
