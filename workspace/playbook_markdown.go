package workspace

import (
	"fmt"
	"strings"
)

// Markdown renders the playbook as one Markdown document, in the order an
// on-call engineer reads it: the TL;DR, the error, the steps, when to use it
// and when not, the phrasings, why it happens, edge cases and sources.
func (p Playbook) Markdown() string {
	var b strings.Builder
	p.writeMarkdown(&b, 1)
	return b.String()
}

// ShelfMarkdown renders a learner's shelf as one Markdown document: each
// playbook under its own second-level heading.
func ShelfMarkdown(shelf []Playbook) string {
	var b strings.Builder
	b.WriteString("# racecase playbooks\n\n")
	fmt.Fprintf(&b, "The on-call playbooks of the %s you solved.\n", plural(len(shelf), "dossier"))
	for _, p := range shelf {
		b.WriteString("\n---\n\n")
		p.writeMarkdown(&b, 2)
	}
	return b.String()
}

// writeMarkdown writes the playbook with its title at heading level top.
func (p Playbook) writeMarkdown(b *strings.Builder, top int) {
	h := func(level int, text string) {
		fmt.Fprintf(b, "%s %s\n\n", strings.Repeat("#", top+level), mdText(text))
	}
	h(0, p.Title)
	h(1, "TL;DR")
	fmt.Fprintf(b, "%s\n\n", mdText(p.TLDR))
	h(1, "Error")
	fence := strings.Repeat("`", max(3, longestRun(p.Error, '`')+1))
	fmt.Fprintf(b, "%stext\n%s\n%s\n\n", fence, strings.TrimSpace(p.Error), fence)
	h(1, "Steps")
	for i, s := range p.Steps {
		fmt.Fprintf(b, "%d. %s\n   Expected: %s\n", i+1, mdText(s.Action), mdText(s.Expected))
	}
	b.WriteString("\n")
	h(1, "Use this when")
	bullets(b, p.UseWhen)
	h(1, "Not for this when")
	for _, l := range p.NotFor {
		fmt.Fprintf(b, "- %s **What it really is:** %s", mdText(l.When), mdText(l.Really))
		if l.Dossier != nil {
			fmt.Fprintf(b, " (racecase dossier: %s, `%s`)", mdText(l.Dossier.Title), l.Dossier.Slug)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	h(1, "Variant phrasings")
	for _, v := range p.VariantPhrasings {
		fmt.Fprintf(b, "- \"%s\"\n", mdText(v))
	}
	b.WriteString("\n")
	h(1, "Why it happens")
	fmt.Fprintf(b, "%s\n\n", mdText(p.Why))
	h(1, "Edge cases")
	bullets(b, p.EdgeCases)
	if len(p.Provenance) > 0 {
		h(1, "Provenance")
		for _, r := range p.Provenance {
			fmt.Fprintf(b, "- [%s](%s)\n", mdText(r.Title), r.URL)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(b, "_From the racecase dossier `%s`, solved on %s._\n", p.Slug, p.SolvedAt.Format("2 January 2006"))
}

// bullets writes a bulleted list and the blank line after it.
func bullets(b *strings.Builder, items []string) {
	for _, it := range items {
		fmt.Fprintf(b, "- %s\n", mdText(it))
	}
	b.WriteString("\n")
}

// mdEscaper escapes the characters that would turn authored text into
// Markdown or HTML: emphasis, links, code and tags.
var mdEscaper = strings.NewReplacer(`\`, `\\`, "`", "\\`", "*", `\*`, "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`)

// mdText is text on one line, with Markdown's special characters escaped.
func mdText(s string) string {
	return mdEscaper.Replace(strings.Join(strings.Fields(s), " "))
}

// longestRun is the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := range len(s) {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}

// plural is "1 dossier" or "3 dossiers".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
