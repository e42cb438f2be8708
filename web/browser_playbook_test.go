package web_test

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/racecase/racecase/challenges"
)

const (
	outreach      = "outreach-lease-expiry"
	outreachTitle = "Two outreach agents emailed the same candidate list after the claim-lock expired"
)

// findBySymptom searches the catalog with the symptom an engineer would
// type, sees the outreach dossier first with the phrase that matched, and
// opens it.
func findBySymptom(t *testing.T, p *page) {
	p.open("/")
	p.waitFor("the catalog", `document.querySelector('.card-link')`)
	p.click(`#catalog-q`)
	p.insertText("visibility timeout expired mid-batch")
	p.keys("search", kb.Enter)
	first := `.cards .card:first-child`
	p.waitFor("the search results", fmt.Sprintf(`document.querySelector(%q)?.dataset.slug === %q && document.querySelector('.search-status').textContent.includes('match')`, first, outreach))
	if got := eval[string](p, `location.search`); got != "?q=visibility%20timeout%20expired%20mid-batch" {
		t.Errorf("the address keeps the search as %q", got)
	}
	marked := eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll('%s .card-match mark')].map((m) => m.textContent.toLowerCase())`, first))
	if strings.Join(marked, " ") == "" || !strings.Contains(strings.Join(marked, " "), "visibility") {
		t.Errorf("the first card marks %q in %q, want the matching words", marked, p.text(first+" .card-match"))
	}
	if kind := p.text(first + " .match-kind"); kind == "" {
		t.Errorf("the matching phrase does not say what it is")
	}
	p.expectNoAxeViolations("the catalog's search results")
	p.screenshot("catalog-search")

	// Typos still find it, as the learner types.
	p.click(`#catalog-q`)
	p.keys("select the query", "a", chromedp.ModifierCtrl)
	p.insertText("redis lok expird befor the batch finshed")
	p.waitFor("the typo search", fmt.Sprintf(`document.querySelector(%q)?.dataset.slug === %q && location.search.includes('lok')`, first, outreach))

	p.click(first + " .card-link")
	p.waitFor("the outreach dossier", fmt.Sprintf(`document.querySelector('#dossier-title')?.textContent === %q`, outreachTitle))
	if n := p.count(`#playbook:not([hidden])`); n != 0 {
		t.Errorf("an unsolved dossier shows its playbook")
	}
}

// seeAndSavePlaybook runs once the flagship is solved: its playbook stands
// beside the revealed root cause, links its look-alikes to their dossiers,
// and saves as Markdown.
func seeAndSavePlaybook(t *testing.T, p *page) {
	d := flagshipDossier(t)
	p.waitFor("the playbook", `document.querySelector('#playbook:not([hidden]) .playbook')`)
	if next := eval[string](p, `document.querySelector('#hypotheses').nextElementSibling?.id`); next != "playbook" {
		t.Errorf("the playbook follows #%s, not the revealed root cause", next)
	}
	if got := p.text(`#playbook .pb-section-tldr p`); got != strings.Join(strings.Fields(d.Playbook.TLDR), " ") {
		t.Errorf("TL;DR %q", got)
	}
	headings := eval[[]string](p, `[...document.querySelectorAll('#playbook .pb-section h4')].map((h) => h.textContent)`)
	want := "TL;DR|Error|Steps|Use this when|Not for this when|Variant phrasings|Why it happens|Edge cases|Provenance"
	if strings.Join(headings, "|") != want {
		t.Errorf("playbook sections %q, want %q", headings, want)
	}
	if n := p.count(`#playbook .pb-steps li .pb-expected`); n != len(d.Playbook.Steps) {
		t.Errorf("%d steps with an expected outcome, want %d", n, len(d.Playbook.Steps))
	}
	if n := p.count(fmt.Sprintf(`#playbook .pb-section-not-for a[data-dossier=%q]`, outreach)); n != 1 {
		t.Errorf("the look-alike lease expiry does not link to its dossier")
	}
	p.expectNoAxeViolations("the solved dossier with its playbook")
	p.do("show the playbook", chromedp.Evaluate[chromedp.Void](`document.querySelector('#playbook').scrollIntoView({block: 'start'}); document.querySelector('.cm-scroller').scrollLeft = 0`))
	p.screenshot("playbook")

	downloads := p.allowDownloads()
	p.click(`#save-playbook`)
	md := waitForDownload(p, downloads, flagship+"-playbook.md")
	for _, want := range []string{"# " + d.Title + "\n", "## TL;DR", "## Steps", "   Expected: ", "## Not for this when", "## Provenance"} {
		if !strings.Contains(md, want) {
			t.Errorf("the saved playbook lacks %q:\n%s", want, md)
		}
	}
	p.waitFor("the saved status", `document.querySelector('#playbook .pb-save-status').textContent.startsWith('Saved as')`)
}

// shelfOfPlaybooks goes from the catalog to the learner's shelf, which holds
// the solved flagship's playbook and saves the shelf as one Markdown file.
func shelfOfPlaybooks(t *testing.T, p *page) {
	d := flagshipDossier(t)
	p.click(`.topbar a[href="/playbooks"]`)
	p.waitFor("the shelf", fmt.Sprintf(`document.querySelector('.shelf-list .playbook[data-slug=%q]')`, flagship))
	if n := p.count(`.shelf-list .playbook`); n != 1 {
		t.Errorf("the shelf holds %d playbooks, want the one solved", n)
	}
	if got := p.text(`.shelf-list .playbook h2`); got != d.Title {
		t.Errorf("the shelf's playbook is titled %q", got)
	}
	p.expectNoAxeViolations("the shelf")
	p.screenshot("shelf")
	downloads := p.allowDownloads()
	p.click(`#save-shelf`)
	all := waitForDownload(p, downloads, "racecase-playbooks.md")
	if !strings.HasPrefix(all, "# racecase playbooks") || !strings.Contains(all, "## "+d.Title+"\n") {
		t.Errorf("the saved shelf:\n%s", all)
	}
}

// flagshipDossier loads the flagship as authored.
func flagshipDossier(t *testing.T) *challenges.Dossier {
	t.Helper()
	d, err := challenges.Load(challenges.FS, flagship)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// allowDownloads lets the browser save downloads into a fresh folder under
// their own names, and returns the folder.
func (p *page) allowDownloads() string {
	p.t.Helper()
	dir := p.t.TempDir()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: dir,
	}); err != nil {
		p.t.Fatalf("allow downloads: %v", err)
	}
	return dir
}

// waitForDownload waits until the browser has finished saving name in dir
// and returns its content.
func waitForDownload(p *page, dir, name string) string {
	p.t.Helper()
	file := filepath.Join(dir, name)
	for deadline := time.Now().Add(stepTimeout); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		data, err := os.ReadFile(file)
		if errors.Is(err, fs.ErrNotExist) || (err == nil && len(data) == 0) {
			continue
		}
		if err != nil {
			p.t.Fatalf("read the download %s: %v", name, err)
		}
		return string(data)
	}
	entries, _ := os.ReadDir(dir)
	p.t.Fatalf("the browser saved no %s (the folder holds %v)", name, entries)
	return ""
}
