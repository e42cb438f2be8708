package web_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/racecase/racecase/challenges"
)

// wrongTurnDecoy is the flagship decoy whose known wrong turn the test expects.
const wrongTurnDecoy = "set-then-read-back"

// TestBrowserWrongTurns submits a known non-fix of the flagship: the failed
// results show the wrong turn written from it, closed on what it looks like,
// and opening it (by keyboard) tells why it fails and where to look.
func TestBrowserWrongTurns(t *testing.T) {
	chromium := requireChromium(t)
	base := startServer(t)
	p := newPage(t, chromium, base, 1440, 900)
	d, err := challenges.Load(challenges.FS, flagship)
	if err != nil {
		t.Fatal(err)
	}
	var want challenges.WrongTurn
	for _, w := range d.WrongTurns {
		if slices.Contains(w.Decoys, wrongTurnDecoy) {
			want = w
		}
	}
	if want.LooksLike == "" {
		t.Fatalf("the flagship has no wrong turn written from %s", wrongTurnDecoy)
	}

	openFlagship(p)
	if n := p.count(`.wrong-turns`); n != 0 {
		t.Fatalf("wrong turns are shown before any submission")
	}
	overlayWorkspace(p, flagship, challenges.DecoysDir+"/"+wrongTurnDecoy)
	p.click(`#submit-fix`)
	if v := lastResults(p, "submit"); v != "fail" {
		t.Fatalf("submission of %s: verdict %q, want fail", wrongTurnDecoy, v)
	}
	const section = `.results[data-kind=submit] .wrong-turns`
	summaries := eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll(%q)].map((s) => s.textContent)`, section+` .wrong-turn summary`))
	i := slices.Index(summaries, want.LooksLike)
	if i < 0 {
		t.Fatalf("the failed submission shows the wrong turns %q, not %q", summaries, want.LooksLike)
	}
	turn := fmt.Sprintf(`%s li:nth-child(%d) .wrong-turn`, section, i+1)
	if eval[bool](p, fmt.Sprintf(`document.querySelector(%q).open`, turn)) {
		t.Errorf("the wrong turn opens unasked")
	}
	p.do("focus the wrong turn", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).focus()`, turn+` summary`)))
	p.keys("open it", kb.Enter)
	p.waitFor("the wrong turn open", fmt.Sprintf(`document.querySelector(%q).open`, turn))
	body := p.text(turn + ` .wrong-turn-body`)
	for _, part := range []string{opening(want.WhyItFails), opening(want.LookAt), want.Tests[0]} {
		if !strings.Contains(body, part) {
			t.Errorf("the open wrong turn lacks %q: %q", part, body)
		}
	}
	if strings.Contains(p.text(`.results`), d.Secret.Explanation[:60]) {
		t.Errorf("the failed results show the secret explanation")
	}
	p.expectNoAxeViolations("the failed results with a wrong turn open")
	p.do("show the wrong turns", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).scrollIntoView({block: 'start'})`, section)))
	p.screenshot("wrong-turn-desktop")
}

// opening is the first 50 characters of a text.
func opening(text string) string {
	if len(text) > 50 {
		text = text[:50]
	}
	return text
}
