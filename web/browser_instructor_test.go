package web_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/racecase/racecase/authoring"
)

// TestBrowserInstructorPage opens the instructor page against the real server
// watching a temporary dossier folder: the token from the URL, the dossier
// list with a broken dossier's lint problem, and the preview of a good one as a
// learner sees it (in a throwaway workspace), a validation with its progress
// and history; then a wrong token typed into the form is refused.
func TestBrowserInstructorPage(t *testing.T) {
	chromium := requireChromium(t)
	root := t.TempDir()
	dirs := authoring.Dirs{Challenges: filepath.Join(root, "challenges"), HiddenTests: filepath.Join(root, "hidden_tests")}
	for _, slug := range []string{"receipt-twice", "refund-twice"} {
		if _, err := authoring.New(dirs, slug); err != nil {
			t.Fatal(err)
		}
	}
	broken := filepath.Join(dirs.Challenges, "refund-twice", "dossier.yaml")
	data, err := os.ReadFile(broken)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(broken, []byte(strings.Replace(string(data), "kind: codebase-incident", "kind: codebase-accident", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	base := startServerWith(t, dirs)

	p := newPage(t, chromium, base, 1280, 800)
	p.open("/instructor#token=" + instructorToken)
	p.waitFor("the dossier list", `document.querySelector('.dossier-row[data-slug="refund-twice"]')`)
	if hash := eval[string](p, `location.hash`); hash != "" {
		t.Errorf("the token stays in the URL: %q", hash)
	}
	if got := eval[string](p, `sessionStorage.getItem('racecase.instructor-token')`); got != instructorToken {
		t.Errorf("sessionStorage holds %q", got)
	}
	if got := p.text(fmt.Sprintf(`.dossier-row[data-slug=%q] .dossier-source`, flagship)); got != "built-in" {
		t.Errorf("the flagship's source %q", got)
	}
	where := p.text(`.details-row[data-slug="refund-twice"] .lint-problem .where`)
	fix := p.text(`.details-row[data-slug="refund-twice"] .lint-problem .fix`)
	if !strings.Contains(where, "refund-twice/dossier.yaml:") || !strings.HasSuffix(where, " kind") || !strings.HasPrefix(fix, "Fix: ") {
		t.Errorf("the broken dossier's problem: %q, %q", where, fix)
	}
	if got := p.text(`.dossier-row[data-slug="refund-twice"] .preview`); got != "Not served" {
		t.Errorf("the broken dossier's preview cell %q", got)
	}
	if got := p.text(`.dossier-row[data-slug="receipt-twice"] .lint`); got != "Clean" {
		t.Errorf("the good dossier's lint cell %q", got)
	}

	p.screenshot("instructor")
	p.expectNoAxeViolations("the instructor page")

	// Validation shows its progress while it runs, and its outcome in the
	// history; no "Validating…" line is left behind.
	row := `.dossier-row[data-slug="receipt-twice"]`
	p.click(row + ` .validate`)
	p.waitFor("the validation's progress", fmt.Sprintf(`/^Validating/.test(document.querySelector('%s .validation .state')?.textContent) && document.querySelector('%s progress')`, row, row))
	p.waitFor("the validation's outcome", fmt.Sprintf(`document.querySelector('%s .validation .state.done')`, row))
	if got := p.text(`.instructor-status`); got != "" {
		t.Errorf("status line left as %q", got)
	}
	p.click(row + ` .history-toggle`)
	p.waitFor("the validation history", `document.querySelectorAll('.details-row[data-slug="receipt-twice"] .validation-item').length === 1`)
	if who := p.text(`.validation-item .who`); who != "instructor" {
		t.Errorf("the history names %q as who asked", who)
	}

	p.click(`.dossier-row[data-slug="receipt-twice"] .preview-link`)
	p.waitFor("the learner's view", `document.querySelector('#dossier-title')`)
	if got, path := p.text(`#dossier-title`), eval[string](p, `location.pathname`); got != "Two workers sent the same receipt" || path != "/dossiers/receipt-twice" {
		t.Errorf("preview shows %q at %s", got, path)
	}

	other := newPage(t, chromium, base, 1280, 800)
	other.open("/instructor")
	other.waitFor("the token form", `document.querySelector('#instructor-token')`)
	other.do("type a wrong token", chromedp.SendKeys(`#instructor-token`, "wrong"))
	other.click(`.token-form button[type=submit]`)
	other.waitFor("the refusal", `document.querySelector('.token-form .error-card')`)
	other.do("type the token", chromedp.SendKeys(`#instructor-token`, instructorToken))
	other.click(`.token-form button[type=submit]`)
	other.waitFor("the dossier list", `document.querySelector('.dossier-row[data-slug="receipt-twice"]')`)
}
