package web_test

import (
	"encoding/csv"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// exactlyOnce is the flagship's hidden test that the unchanged repository fails.
const exactlyOnce = "exactly one notification per job in every schedule"

// TestBrowserCohort walks an instructor through a class against the real
// server and runner: creating a cohort, two learners joining by its link
// (Ada solves the flagship, Bob stays stuck on it), the live progress table
// and insights, the CSV export, Bob's workspace read-only, and a preview in
// a throwaway workspace; then the instructor's pages on a phone.
func TestBrowserCohort(t *testing.T) {
	chromium := requireChromium(t)
	base := startServer(t)

	teacher := newPage(t, chromium, base, 1280, 900)
	teacher.open("/instructor#token=" + instructorToken)
	teacher.waitFor("the cohort form", `document.querySelector('.cohort-form') && document.querySelector('.cohorts, .cohort-list p')`)
	teacher.do("name the cohort", chromedp.SendKeys(`#cohort-name`, "Concurrency lab A"))
	teacher.click(fmt.Sprintf(`#cohort-dossier-%s`, flagship))
	teacher.click(`.cohort-form button[type=submit]`)
	teacher.waitFor("the cohort's page", `document.querySelector('#join-link') && document.querySelector('.class-table')`)
	if got := teacher.text(`#cohort-name`); got != "Concurrency lab A" {
		t.Errorf("cohort page title %q", got)
	}
	join := strings.TrimPrefix(eval[string](teacher, `document.querySelector('#join-link').value`), base)
	if !strings.HasPrefix(join, "/join/") {
		t.Fatalf("join link %q", join)
	}
	if got := teacher.text(`.class-table caption`); !strings.Contains(got, "Nobody has joined yet") {
		t.Errorf("empty table says %q", got)
	}

	ada := joinAs(t, chromium, base, join, "Ada")
	bob := joinAs(t, chromium, base, join, "Bob")
	teacher.waitFor("both learners in the table", `document.querySelectorAll('.class-row').length === 2`)

	// Bob marks the wrong hypothesis, asks for a hint and submits the bug unchanged.
	openFromJoin(bob)
	bob.click(`label[data-hypothesis="redelivery"]`)
	bob.click(`#reveal-hint`)
	bob.waitFor("the first hint", `document.querySelectorAll('#coach .hint').length === 1`)
	bob.click(`#submit-fix`)
	if v := lastResults(bob, "submit"); v != "fail" {
		t.Fatalf("Bob's submission of the bug: %q", v)
	}

	// Ada marks the root cause, reproduces the bug, then types the fix and submits it.
	openFromJoin(ada)
	ada.click(`label[data-hypothesis="lock-claim"]`)
	ada.click(`#run-checks`)
	if v := lastResults(ada, "check"); v != "fail" {
		t.Fatalf("Ada's check of the bug: %q", v)
	}
	ada.click(fmt.Sprintf(`#focus button[title="Open %s"]`, fixFile))
	ada.waitFor("the lock helper", fmt.Sprintf(`document.querySelector('.tab.active[data-path=%q]')`, fixFile))
	if v := submitTyped(ada, false, solution(t)); v != "pass" {
		t.Fatalf("Ada's submission of the fix: %q", v)
	}

	// The table, open all along, shows both without a reload.
	adaRow, bobRow := `.class-row[data-learner="Ada"]`, `.class-row[data-learner="Bob"]`
	teacher.waitFor("Ada solved and Bob's failing property", fmt.Sprintf(
		`document.querySelector('%s .col-solved')?.textContent && document.querySelector('%s .col-failing')?.textContent.includes(%q)`, adaRow, bobRow, exactlyOnce))
	for sel, want := range map[string]string{
		adaRow + " .col-step": "4/4 Submit fix", adaRow + " .col-checks": "1", adaRow + " .col-submissions": "1",
		bobRow + " .col-step": "0/4 Opened", bobRow + " .col-hints": "1", bobRow + " .col-submissions": "1",
	} {
		if got := teacher.text(sel); !strings.HasSuffix(got, want) {
			t.Errorf("%s: %q, want it to end %q", sel, got, want)
		}
	}
	teacher.waitFor("the insight", `document.querySelector('.insight .solve-rate dd')?.textContent === '50% (1 of 2)'`)
	insight := fmt.Sprintf(`.insight[data-dossier=%q]`, flagship)
	// Bob's one submission fails several tests once each; the bars list them all.
	if got := eval[[]string](teacher, fmt.Sprintf(`[...document.querySelectorAll('%s .failed-properties .bar-label')].map((e) => e.textContent)`, insight)); !slices.Contains(got, exactlyOnce) {
		t.Errorf("the properties that failed: %q, want %q among them", got, exactlyOnce)
	}
	if n := teacher.count(insight + " .decoy-resemblance .bar-row"); n == 0 {
		t.Errorf("no decoy listed")
	}
	if got := teacher.text(insight + " .hypothesis-picks .bar-row.root-cause .bar-count"); got != "1" {
		t.Errorf("picks of the root cause: %q", got)
	}
	teacher.screenshot("instructor-cohort")
	teacher.expectNoAxeViolations("the cohort page")

	// Sort by time, longest first; then keep only those not solved yet.
	teacher.click(`.class-table .sort[data-column="time"]`)
	teacher.click(`.class-table .sort[data-column="time"]`)
	if got := eval[string](teacher, `document.querySelector('.class-table th[aria-sort="descending"] .sort')?.dataset.column ?? ''`); got != "time" {
		t.Errorf("sorted by %q, want time descending", got)
	}
	teacher.do("show the stuck", chromedp.SetValue(`#class-status`, "stuck"), chromedp.Evaluate[chromedp.Void](`document.querySelector('#class-status').dispatchEvent(new Event('change'))`))
	if got := eval[[]string](teacher, `[...document.querySelectorAll('.class-row')].map((r) => r.dataset.learner)`); len(got) != 1 || got[0] != "Bob" {
		t.Errorf("not solved yet: %v", got)
	}

	// The CSV export.
	downloads := teacher.allowDownloads()
	teacher.click(`#export-csv`)
	cohortID := strings.TrimPrefix(eval[string](teacher, `location.pathname`), "/instructor/cohorts/")
	rows, err := csv.NewReader(strings.NewReader(waitForDownload(teacher, downloads, cohortID+"-progress.csv"))).ReadAll()
	if err != nil || len(rows) != 3 || rows[0][0] != "learner" || rows[1][0] != "Ada" || rows[1][3] != "4" || rows[2][0] != "Bob" || rows[2][9] != exactlyOnce {
		t.Errorf("CSV %q (%v)", rows, err)
	}

	// Bob's workspace, read-only: his failed submission and his pick.
	bobWorkspace := eval[string](teacher, fmt.Sprintf(`document.querySelector('%s .open-workspace').getAttribute('href')`, bobRow))
	teacher.click(bobRow + ` .open-workspace`)
	teacher.waitFor("Bob's workspace", `document.querySelector('.ro-run[data-kind=submit][data-verdict=fail]')`)
	if got := teacher.text(`#ro-title`); !strings.HasPrefix(got, "Bob (Concurrency lab A)") {
		t.Errorf("read-only title %q", got)
	}
	if got := teacher.text(`.ro-pick`); got != "redelivery" {
		t.Errorf("Bob's pick shows as %q", got)
	}
	if n := teacher.count(`.ro-view input, .ro-view textarea, .ro-view [contenteditable]`); n != 0 {
		t.Errorf("the read-only view has %d editable fields", n)
	}
	teacher.click(fmt.Sprintf(`.ro-file[data-path=%q]`, fixFile))
	teacher.waitFor("the lock helper's content", fmt.Sprintf(`document.querySelector('.ro-content[data-path=%q]')?.textContent.includes('await store.get(key)')`, fixFile))
	teacher.screenshot("instructor-readonly")

	previewFlagship(t, teacher)
	onAPhone(t, chromium, base, "/instructor/cohorts/"+cohortID, bobWorkspace)
}

// joinAs opens a join link in a new browser, joins as name and returns the page.
func joinAs(t *testing.T, chromium, base, join, name string) *page {
	t.Helper()
	p := newPage(t, chromium, base, 1280, 800)
	p.open(join)
	p.waitFor("the join form", `document.querySelector('#display-name')`)
	p.do("type the name", chromedp.SendKeys(`#display-name`, name))
	p.click(`.join-form button[type=submit]`)
	p.waitFor("the welcome", `document.querySelector('.join-card .joined')`)
	if got := p.text(`.join-card .joined`); !strings.HasPrefix(got, "You are in as "+name+".") {
		t.Errorf("joined page says %q", got)
	}
	return p
}

// openFromJoin opens the flagship from the join page and waits for its workspace.
func openFromJoin(p *page) {
	p.t.Helper()
	p.click(`.join-dossier`)
	p.waitFor("the workspace to be ready", `document.querySelector('#ws-status')?.textContent === 'Ready' && document.querySelector('.workspace .tree-item.file')`)
}

// previewFlagship previews the flagship from the instructor page: a fresh
// workspace that is not the instructor's, reset to another fresh one, then left.
func previewFlagship(t *testing.T, p *page) {
	t.Helper()
	p.open("/instructor")
	p.waitFor("every learner's insight", fmt.Sprintf(`document.querySelector('#main > .insights-holder .insight[data-dossier=%q] .solve-rate dd')?.textContent === '50%% (1 of 2)'`, flagship))
	p.click(fmt.Sprintf(`.dossier-row[data-slug=%q] .preview-link`, flagship))
	p.waitFor("the preview", `document.querySelector('.preview-banner') && document.querySelector('#ws-status')?.textContent === 'Ready'`)
	first := eval[string](p, `fetch('/api/workspaces').then(r => r.json()).then(j => j.workspaces.map(w => w.id).join())`)
	if got := p.text(`.timer`); got != "00:00" && got != "00:01" && got != "00:02" {
		t.Errorf("a fresh preview's timer shows %q", got)
	}
	p.screenshot("instructor-preview")
	p.click(`#reset-preview`)
	p.waitFor("a new preview workspace", fmt.Sprintf(`fetch('/api/workspaces').then(r => r.json()).then(j => j.workspaces.length === 1 && j.workspaces[0].id !== %q)`, first))
	p.waitFor("the reset preview", `document.querySelector('.preview-banner') && document.querySelector('#ws-status')?.textContent === 'Ready'`)
	p.click(`#leave-preview`)
	p.waitFor("the instructor page", `location.pathname === '/instructor' && document.querySelector('.dossier-row')`)
	if n := eval[int](p, `fetch('/api/workspaces').then(r => r.json()).then(j => j.workspaces.length)`); n != 0 {
		t.Errorf("after leaving the preview the browser has %d workspaces, want its own (none)", n)
	}
}

// onAPhone opens the instructor's pages 390 px wide: nothing scrolls sideways.
func onAPhone(t *testing.T, chromium, base, cohort, learnerWorkspace string) {
	t.Helper()
	phone := newPage(t, chromium, base, 390, 844)
	for _, pg := range []struct{ path, ready, shot string }{
		{"/instructor#token=" + instructorToken, `document.querySelector('.dossier-row') && document.querySelector('.cohort-item')`, "instructor-phone"},
		{cohort, `document.querySelectorAll('.class-row').length === 2 && document.querySelector('.insight')`, "instructor-cohort-phone"},
		{learnerWorkspace, `document.querySelector('.ro-run')`, "instructor-readonly-phone"},
	} {
		phone.open(pg.path)
		phone.waitFor(pg.shot, pg.ready)
		if wide := eval[[]string](phone, `[...document.querySelectorAll('main *')].filter((el) => el.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
			.slice(0, 5).map((el) => el.tagName + '.' + el.className)`); len(wide) > 0 {
			t.Errorf("%s: wider than the phone: %v", pg.path, wide)
		}
		if sw, cw := eval[int](phone, `document.documentElement.scrollWidth`), eval[int](phone, `document.documentElement.clientWidth`); sw > cw {
			t.Errorf("%s scrolls sideways: %d > %d", pg.path, sw, cw)
		}
		phone.screenshot(pg.shot)
	}
}
