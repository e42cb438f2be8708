package web_test

import (
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/racecase/racecase/challenges"
)

const (
	flagship      = "job-lock-double-send"
	flagshipTitle = "The job that two workers both completed"
	fixFile       = "src/locks/job-lock.js"
)

// TestBrowser drives the real app in headless Chromium against the real
// server and runner: each subtest is a new browser, so a new learner.
func TestBrowser(t *testing.T) {
	chromium := requireChromium(t)
	base := startServer(t)
	t.Run("solve the flagship", func(t *testing.T) { solveFlagship(t, newPage(t, chromium, base, 1280, 800)) })
	t.Run("a failing submission shows the interleaving", func(t *testing.T) {
		failingSubmission(t, newPage(t, chromium, base, 1280, 800))
	})
	t.Run("a save conflict asks which version to keep", func(t *testing.T) {
		saveConflict(t, newPage(t, chromium, base, 1280, 800))
	})
	t.Run("a git push shows in the page", func(t *testing.T) { gitPush(t, newPage(t, chromium, base, 1280, 800)) })
	t.Run("find an incident by symptom", func(t *testing.T) { findBySymptom(t, newPage(t, chromium, base, 1280, 800)) })
	t.Run("browse the catalog by failure class", func(t *testing.T) { browseByClass(t, newPage(t, chromium, base, 1280, 800)) })
}

// openFlagship opens the flagship from the catalog and waits for its workspace.
func openFlagship(p *page) {
	p.t.Helper()
	p.open("/")
	card := fmt.Sprintf(`.card[data-slug=%q] .card-link`, flagship)
	p.waitFor("the flagship's card", fmt.Sprintf(`document.querySelector(%q)`, card))
	if got := p.text(fmt.Sprintf(`.card[data-slug=%q] .card-title`, flagship)); got != flagshipTitle {
		p.t.Fatalf("card title %q, want %q", got, flagshipTitle)
	}
	p.click(card)
	p.waitFor("the dossier", `document.querySelector('#dossier-title')`)
	p.waitFor("the workspace to be ready", `document.querySelector('#ws-status')?.textContent === 'Ready' && document.querySelector('.workspace .tree-item.file')`)
}

// lastResults waits for the results of a finished run of kind and returns its verdict.
func lastResults(p *page, kind string) string {
	p.t.Helper()
	sel := fmt.Sprintf(`.results[data-kind=%q]`, kind)
	p.waitFor(kind+" results", fmt.Sprintf(`document.querySelector(%q) && !document.querySelector('#run-checks').disabled`, sel))
	return eval[string](p, fmt.Sprintf(`document.querySelector(%q).dataset.verdict`, sel))
}

func solveFlagship(t *testing.T, p *page) {
	openFlagship(p)

	// Read the evidence.
	for sel, want := range map[string]string{
		".dossier-head .eyebrow": "Incident Dossier",
		"#dossier-title":         flagshipTitle,
		".signal-text":           "One queue job emits two notifications",
		".desk-title h2":         "Evidence desk",
		"#focus .focus-question": "The important question is whether the lock is claimed before or after the first await.",
	} {
		if got := p.text(sel); got != want {
			t.Errorf("%s: %q, want %q", sel, got, want)
		}
	}
	if n := p.count(`#architecture svg .arch-node`); n != 6 {
		t.Errorf("architecture shows %d components, want 6", n)
	}
	if labels := p.text(`#architecture .arch-edge-labels`); !strings.Contains(labels, "at-least-once delivery") || !strings.Contains(labels, "dedupe key") {
		t.Errorf("architecture edge labels %q", labels)
	}
	if src := p.text(`#logs`); !strings.Contains(src, "worker.job") || !strings.Contains(src, "job.lock") {
		t.Errorf("log panels lack their sources: %q", src)
	}
	if src := p.text(`#metrics`); !strings.Contains(src, "queue.metrics") {
		t.Errorf("metric panel lacks its source: %q", src)
	}
	if n := p.count(`.tree-item[data-path="package.json"] .mark.ro svg`); n != 1 {
		t.Errorf("the read-only package.json is not marked with the drawn lock")
	}
	if n := p.count(`#hypotheses input[type=radio]`); n != 3 {
		t.Errorf("%d hypotheses, want 3", n)
	}
	if n := p.count(`.hypothesis.correct`); n != 0 {
		t.Errorf("the root cause is shown before any submission")
	}
	if got := p.text(`[data-source=signal] .em-state`); got != "loaded" {
		t.Errorf("Evidence Map: failing signal %q", got)
	}

	// Mark a hypothesis, open a start file, reproduce the bug.
	p.click(`label[data-hypothesis="lock-claim"]`)
	p.click(fmt.Sprintf(`#focus button[title="Open %s"]`, fixFile))
	p.waitFor("the start file's tab", fmt.Sprintf(`document.querySelector('.tab.active[data-path=%q]') && document.querySelector('.cm-content').textContent.includes('Per-job lock')`, fixFile))
	// Focus Mode keeps only the question, the start files and the editor.
	p.click(`.topbar .focus-toggle`)
	p.waitFor("Focus Mode", `document.body.classList.contains('focus-mode')`)
	for sel, visible := range map[string]bool{"#focus": true, ".cm-editor": true, ".explorer": false, ".output": false, "#architecture": false, ".stepper-bar": false} {
		if got := eval[bool](p, fmt.Sprintf(`!!document.querySelector(%q)?.offsetParent`, sel)); got != visible {
			t.Errorf("Focus Mode: %s visible=%v, want %v", sel, got, visible)
		}
	}
	p.screenshot("focus-mode")
	p.click(`.topbar .focus-toggle`)
	p.waitFor("Focus Mode off", `!document.body.classList.contains('focus-mode')`)

	// Every control has an accessible name.
	if unnamed := eval[[]string](p, `[...document.querySelectorAll('button, input, select, textarea, a[href], [role=tab]')]
		.filter((el) => !(el.getAttribute('aria-label') || el.textContent.trim() || el.labels?.length || el.title))
		.map((el) => el.outerHTML.slice(0, 80))`); len(unnamed) > 0 {
		t.Errorf("controls without an accessible name: %q", unnamed)
	}

	p.click(`#run-checks`)
	if v := lastResults(p, "check"); v != "fail" {
		t.Fatalf("checks on the buggy repository: verdict %q, want fail", v)
	}
	if !strings.Contains(p.text(`.results .test.fail .test-name`), "send exactly one notification") {
		t.Errorf("the failing check is not the concurrent worker test: %q", p.text(`.results`))
	}
	p.waitFor("step 1 done", `document.querySelector('[data-step=reproduced].done')`)

	// Type the fix: select everything in the editor and type the reference fix.
	fix := solution(t)
	p.watchSave()
	p.do("measure the toolbar", chromedp.Evaluate[chromedp.Void](`window.__runBox = JSON.stringify(document.querySelector('#run-checks').getBoundingClientRect())`))
	p.click(`.cm-content .cm-line`)
	p.keys("select all", "a", chromedp.ModifierCtrl)
	p.insertText(fix)
	p.waitFor("the toolbar to say Saving…", `__saveStates.includes('saving') || __saveStates.includes('dirty')`)
	if moved := eval[bool](p, `JSON.stringify(document.querySelector('#run-checks').getBoundingClientRect()) !== __runBox`); moved {
		t.Errorf("the toolbar moved while typing")
	}
	p.waitSaved("Autosaved")
	if got := p.text(`.save-pill`); got != "Autosaved" {
		t.Errorf("save pill %q, want Autosaved", got)
	}
	ws := eval[string](p, `fetch('/api/workspaces').then(r => r.json()).then(j => j.workspaces[0].id)`)
	saved := fetchJSON[struct {
		Content string `json:"content"`
		Changed bool   `json:"changed"`
	}](p, "GET", "/api/workspaces/"+ws+"/files/"+fixFile, nil)
	if saved.Content != fix || !saved.Changed {
		t.Fatalf("the server holds %d bytes (changed=%v), want the typed fix (%d bytes)", len(saved.Content), saved.Changed, len(fix))
	}
	p.waitFor("the explorer to mark the file changed", fmt.Sprintf(`document.querySelector('.tree-item.file.changed[data-path=%q]')`, fixFile))

	// My changes: the merge view shows the original beside the fix.
	p.click(`#my-changes`)
	p.waitFor("the merge view", `document.querySelector('.changes-view:not([hidden]) .cm-mergeView')`)
	// The panes render only what is in view: scroll through them and read both.
	sides := eval[[]string](p, `(async () => {
		const body = document.querySelector('.changes-body');
		let a = '', b = '';
		for (let y = 0; y <= body.scrollHeight; y += 120) {
			body.scrollTop = y;
			await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
			const eds = document.querySelectorAll('.changes-view .cm-mergeView .cm-content');
			a += eds[0].textContent;
			b += eds[1].textContent;
		}
		body.scrollTop = 0;
		return [a, b];
	})()`)
	if len(sides) != 2 || !strings.Contains(sides[0], "await store.get(key)") || strings.Contains(sides[0], "setIfAbsent(") || !strings.Contains(sides[1], "store.setIfAbsent(") {
		t.Errorf("My changes does not show the original beside the fix")
	}
	if n := p.count(`.changes-view .cm-changedLine`); n == 0 {
		t.Errorf("My changes marks no changed line")
	}
	if got := eval[string](p, `getComputedStyle(document.querySelector('.cm-collapsedLines'), '::before').content`); got != `"↕"` {
		t.Errorf("collapsed unchanged lines are marked with %s, a glyph Debian's fonts may lack", got)
	}
	if share := eval[float64](p, `document.querySelector('.changes-view').offsetHeight / document.querySelector('.work').offsetHeight`); share < 0.5 {
		t.Errorf("My changes gets %.0f%% of the column", share*100)
	}
	p.screenshot("my-changes")
	p.click(`#my-changes`)

	// Run checks with the keyboard, then submit.
	p.click(`.cm-content .cm-line`)
	p.keys("Ctrl+Enter", kb.Enter, chromedp.ModifierCtrl)
	if v := lastResults(p, "check"); v != "pass" {
		t.Fatalf("checks on the fix: verdict %q, want pass; %s", v, p.text(`.results`))
	}
	p.waitFor("steps 2 and 3 done", `document.querySelector('[data-step=edited].done') && document.querySelector('[data-step="checks-passed"].done')`)
	p.click(`#submit-fix`)
	if v := lastResults(p, "submit"); v != "pass" {
		t.Fatalf("submission of the fix: verdict %q, want pass; %s", v, p.text(`.results`))
	}
	tests, passed := p.count(`.results[data-kind=submit] .test`), p.count(`.results[data-kind=submit] .test.pass`)
	if tests == 0 || passed != tests {
		t.Errorf("%d of %d hidden tests pass, want all", passed, tests)
	}

	// The root cause is revealed, and the learner's mark was right.
	p.waitFor("the hypothesis reveal", `document.querySelector('.hypothesis.correct[data-hypothesis="lock-claim"]')`)
	if got := p.text(`.reveal-head`); !strings.Contains(got, "You called it") || !strings.Contains(got, "Lock claim is not atomic") {
		t.Errorf("reveal %q", got)
	}
	p.waitFor("every step done and the clock stopped", `document.querySelectorAll('.stepper .step.done').length === 4 && document.querySelector('.timer.solved') && document.querySelector('#ws-status').textContent === 'Solved'`)
	seeAndSavePlaybook(t, p)
	// Show the reveal in the desk and the claim in the editor.
	p.click(`.cm-content .cm-line`)
	p.keys("go to the start", kb.Home, chromedp.ModifierCtrl)
	p.do("frame the screenshot", chromedp.Evaluate[chromedp.Void](`document.querySelector('#hypotheses').scrollIntoView({block: 'start'});
		const sc = document.querySelector('.cm-scroller'); sc.scrollLeft = 0; sc.scrollTop = 1150;
		document.activeElement.blur()`))
	p.screenshot("workspace")

	// The catalog shows the progress.
	p.click(`.brand`)
	p.waitFor("the solved card", fmt.Sprintf(`document.querySelector('.card[data-slug=%q] .card-progress.solved')`, flagship))
	p.screenshot("catalog")
	shelfOfPlaybooks(t, p)
}

func failingSubmission(t *testing.T, p *page) {
	openFlagship(p)
	p.click(`#submit-fix`)
	if v := lastResults(p, "submit"); v != "fail" {
		t.Fatalf("submission of the buggy repository: verdict %q, want fail", v)
	}
	if n := p.count(`.results .timeline`); n == 0 {
		t.Fatalf("no interleaving timeline for the failed hidden test: %s", p.text(`.results`))
	}
	lanes := p.text(`.results .timeline-figure .tl-lanes`)
	if !strings.Contains(lanes, "blue") || !strings.Contains(lanes, "green") {
		t.Errorf("timeline lanes %q lack the workers blue and green", lanes)
	}
	if n := p.count(`.results .timeline-figure .tl-card.breaks`); n == 0 {
		t.Errorf("no highlighted step in the timeline")
	}
	if n := p.count(`.hypothesis.correct`); n != 0 {
		t.Errorf("a failing submission revealed the root cause")
	}

	// The coach reveals hints one at a time, broad first.
	if n := p.count(`#coach .hint`); n != 0 {
		t.Fatalf("%d hints shown before any was asked for", n)
	}
	p.click(`#reveal-hint`)
	p.waitFor("the first hint", `document.querySelectorAll('#coach .hint').length === 1`)
	if got := p.text(`#coach .hint h4`); got != "Count before you theorise" {
		t.Errorf("first hint %q", got)
	}
	if got := p.text(`[data-source=hints] .em-state`); got != "loaded" {
		t.Errorf("Evidence Map: hints %q", got)
	}

	p.screenshot("failing-timeline")

	// After a reload the page comes back from the API as it was: the last
	// results, the revealed hint, the progress.
	p.do("reload", chromedp.Reload())
	p.waitFor("the restored results", `document.querySelector('.results[data-kind=submit][data-verdict=fail] .timeline') && document.querySelectorAll('#coach .hint').length === 1`)
}

// solution returns the reference fix of the flagship's lock helper.
func solution(t *testing.T) string {
	t.Helper()
	return lockHelper(t, (*challenges.Dossier).SolutionFiles)
}

// lockHelper returns the flagship's lock helper from a set of its files
// (the repository's or the reference fix's).
func lockHelper(t *testing.T, files func(*challenges.Dossier, fs.FS) (map[string][]byte, error)) string {
	t.Helper()
	d, err := challenges.Load(challenges.FS, flagship)
	if err != nil {
		t.Fatal(err)
	}
	all, err := files(d, challenges.FS)
	if err != nil {
		t.Fatal(err)
	}
	f, ok := all[fixFile]
	if !ok {
		t.Fatalf("the flagship's files have no %s", fixFile)
	}
	return string(f)
}
