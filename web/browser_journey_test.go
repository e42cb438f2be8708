package web_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/racecase/racecase/challenges"
)

// TestBrowserJourney is a learner's wrong fix, then right fix, of the
// flagship at a desktop's and a phone's size: the failing interleaving tells
// its story (a sentence, the call in flight drawn as a bar, steps walked by
// keyboard), the page passes axe-core, and a reload brings the work back.
func TestBrowserJourney(t *testing.T) {
	chromium := requireChromium(t)
	base := startServer(t)
	t.Run("desktop 1440x900", func(t *testing.T) { journey(t, newPage(t, chromium, base, 1440, 900), false) })
	t.Run("phone 390x844", func(t *testing.T) { journey(t, newPage(t, chromium, base, 390, 844), true) })
}

// setSleepReread is the flagship's lock helper with a common wrong fix: it
// writes the lock, sleeps 10 ms, and proceeds if reading it back gives its own name.
func setSleepReread(t *testing.T) string {
	t.Helper()
	const claim = "      await store.set(key, owner, { ttlMs });\n"
	orig := lockHelper(t, (*challenges.Dossier).RepoFiles)
	if !strings.Contains(orig, claim) {
		t.Fatalf("the flagship's %s no longer claims with %q", fixFile, claim)
	}
	return strings.Replace(orig, claim, claim+
		"      await new Promise((resolve) => setTimeout(resolve, 10));\n"+
		"      if ((await store.get(key)) !== owner) return null;\n", 1)
}

// story matches the summary of a read that missed a claim still in flight.
var story = regexp.MustCompile(`^(blue|green)'s set of lock:job-7(?: \(for job-7 #\d\))? was still in flight( \(since \d+ ms\))? when (blue|green)(?: \(for job-7 #\d\))? read it at step (\d+) and got .+; blue and green both went on to send \(steps \d+ and \d+\)\.$`)

func journey(t *testing.T, p *page, phone bool) {
	size := map[bool]string{false: "desktop", true: "phone"}[phone]
	p.open("/")
	p.waitFor("the catalog", `document.querySelector('.card-link')`)
	p.expectNoAxeViolations("the catalog")
	openFlagship(p)
	p.expectNoAxeViolations("the dossier page")

	if phone {
		phoneStart(t, p)
	} else {
		keyLogLines(t, p)
		keyboardPath(t, p)
	}

	// The wrong fix, typed into the editor.
	showCode(p, phone)
	p.click(fmt.Sprintf(`.tree-item[data-path=%q]`, fixFile))
	p.waitFor("the lock helper", fmt.Sprintf(`document.querySelector('.tab.active[data-path=%q]')`, fixFile))
	if v := submitTyped(p, phone, setSleepReread(t)); v != "fail" {
		t.Fatalf("the wrong fix: verdict %q, want fail", v)
	}
	if got := p.text(`#ws-status`); got != "Failed" {
		t.Errorf("status after a failed submission %q, want Failed", got)
	}
	if phone {
		p.waitFor("the results view", `document.querySelector('#view-tab-results').getAttribute('aria-selected') === 'true'`)
		if top := eval[float64](p, `document.querySelector('.results').getBoundingClientRect().top`); top < 0 || top > 400 {
			t.Errorf("after the run the results start at %.0f px, not in view", top)
		}
	} else if share := eval[float64](p, `document.querySelector('#output').offsetHeight / document.querySelector('.work').offsetHeight`); share < 0.5 {
		t.Errorf("the results opened at %.0f%% of the column, want them large", share*100)
	}
	failingInterleaving(t, p, phone)
	p.expectNoAxeViolations("the failed results")
	p.screenshot("journey-" + size + "-failing-interleaving")

	// The right fix.
	if v := submitTyped(p, phone, solution(t)); v != "pass" {
		t.Fatalf("the reference fix: verdict %q, want pass; %s", v, p.text(`.results`))
	}
	p.waitFor("Solved", `document.querySelector('#ws-status').textContent === 'Solved'`)
	p.expectNoAxeViolations("the passed results")
	p.screenshot("journey-" + size + "-passed")

	// A reload brings back the open tabs, the active file and the last results.
	tabs := eval[[]string](p, `[...document.querySelectorAll('.tabs .tab')].map((t) => t.dataset.path)`)
	p.do("reload", chromedp.Reload())
	p.waitFor("the restored results", `document.querySelector('.results[data-kind=submit][data-verdict=pass]')`)
	p.waitFor("the restored tabs", fmt.Sprintf(`document.querySelector('.tab.active[data-path=%q]')`, fixFile))
	if got := eval[[]string](p, `[...document.querySelectorAll('.tabs .tab')].map((t) => t.dataset.path)`); strings.Join(got, ",") != strings.Join(tabs, ",") {
		t.Errorf("tabs after a reload %q, want %q", got, tabs)
	}
	if got := eval[string](p, `document.querySelector('#out-tab-results').getAttribute('aria-selected')`); got != "true" {
		t.Errorf("the last results are not shown after a reload")
	}
}

// submitTyped types content over the open file, waits until it is saved,
// submits it and returns the verdict.
func submitTyped(p *page, phone bool, content string) string {
	p.t.Helper()
	showCode(p, phone)
	p.watchSave()
	p.click(`.cm-content .cm-line`)
	p.keys("select all", "a", chromedp.ModifierCtrl)
	p.insertText(content)
	p.waitSaved("the typed fix saved")
	p.click(`#submit-fix`)
	return lastResults(p, "submit")
}

// showCode brings the editor into view: on phones it is the Code tab.
func showCode(p *page, phone bool) {
	p.t.Helper()
	if phone {
		p.click(`#view-tab-code`)
	}
	p.waitFor("the editor", `!!document.querySelector('.cm-editor')?.offsetParent`)
}

// phoneStart checks the phone's views: tabs instead of a long page, and
// Run checks from the stepper showing its results.
func phoneStart(t *testing.T, p *page) {
	if over := eval[bool](p, `document.documentElement.scrollWidth > window.innerWidth + 1`); over {
		t.Errorf("the page is wider than the phone: %d px", eval[int](p, `document.documentElement.scrollWidth`))
	}
	p.click(`#view-tab-evidence`)
	p.screenshot("journey-phone-evidence")
	p.click(`a.jump`)
	p.waitFor("the Code view", `document.querySelector('#view-tab-code').getAttribute('aria-selected') === 'true' && !!document.querySelector('.cm-editor').offsetParent`)
	if top := eval[float64](p, `document.querySelector('#workspace').getBoundingClientRect().top`); top < 0 || top > 120 {
		t.Errorf("after Go to the workspace the workspace starts at %.0f px", top)
	}
	p.screenshot("journey-phone-code")
	p.do("scroll to the stepper", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
	p.click(`.step.current .step-action`)
	if v := lastResults(p, "check"); v != "fail" {
		t.Fatalf("checks on the buggy repository: verdict %q, want fail", v)
	}
	p.waitFor("the results in view", `document.querySelector('#view-tab-results').getAttribute('aria-selected') === 'true'`)
	if top := eval[float64](p, `document.querySelector('.results').getBoundingClientRect().top`); top < 0 || top > 400 {
		t.Errorf("Run checks from the stepper: the results start at %.0f px, not in view", top)
	}
}

// failingInterleaving checks the timeline of the first failed hidden test.
func failingInterleaving(t *testing.T, p *page, phone bool) {
	const fig = `.results .test.fail .timeline-figure`
	sentence := p.text(fig + ` .tl-story`)
	m := story.FindStringSubmatch(sentence)
	if m == nil {
		t.Fatalf("the summary %q does not tell of a read that missed a claim in flight", sentence)
	}
	if !eval[bool](p, fmt.Sprintf(`document.querySelector(%q).classList.contains(%q)`, fig+` .tl-stage`, map[bool]string{false: "across", true: "down"}[phone])) {
		t.Errorf("the timeline does not run %s on this screen", map[bool]string{false: "across", true: "down"}[phone])
	}
	// The picture shows the claim in flight beside the read the sentence names.
	label := p.text(fig + ` .tl-bar.story .tl-bar-label`)
	if !strings.HasPrefix(label, "set in flight") || (m[2] != "" && !strings.Contains(label, strings.TrimSuffix(strings.TrimPrefix(m[2], " ("), ")"))) {
		t.Errorf("the bar of the claim in flight says %q (summary %q)", label, sentence)
	}
	spans := eval[bool](p, fmt.Sprintf(`(() => {
		const bar = document.querySelector(%q).getBoundingClientRect();
		const read = document.querySelector(%q).getBoundingClientRect();
		return %t ? bar.top < read.top && bar.bottom > read.bottom : bar.left < read.left && bar.right > read.right;
	})()`, fig+` .tl-bar.story .tl-bar-fill`, fmt.Sprintf(`%s .tl-card[data-step="%s"]`, fig, m[4]), phone))
	if !spans {
		t.Errorf("the claim's bar does not span step %s, the read it was in flight for", m[4])
	}
	// It starts at step 1; worker labels cover no card; results are not cut.
	if !phone {
		if left := eval[float64](p, fmt.Sprintf(`document.querySelector(%q).scrollLeft`, fig+` .tl-scroll`)); left != 0 {
			t.Errorf("the timeline opens scrolled by %.0f px", left)
		}
	}
	if covered := eval[[]string](p, fmt.Sprintf(`(() => {
		const out = [];
		for (const w of document.querySelectorAll(%q)) for (const c of document.querySelectorAll(%q)) {
			const a = w.getBoundingClientRect(), b = c.getBoundingClientRect();
			if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) out.push(w.textContent + ' over step ' + c.dataset.step);
		}
		return out;
	})()`, fig+` .tl-worker > span`, fig+` .tl-card`)); len(covered) > 0 {
		t.Errorf("worker labels cover cards: %q", covered)
	}
	if cut := eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll(%q)]
		.filter((r) => r.textContent.includes('expires in') && r.scrollHeight > r.clientHeight + 1).map((r) => r.textContent)`, fig+` .tl-card-result`)); len(cut) > 0 {
		t.Errorf("results cut off in the timeline: %q", cut)
	}

	// The keyboard walks the steps; the text trace and the detail follow.
	p.do("focus the first step", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).focus()`, fig+` .tl-card[tabindex="0"]`)))
	if got := eval[string](p, `document.activeElement.dataset.step`); got != "1" {
		t.Fatalf("the timeline's tab stop is step %q, want 1", got)
	}
	read := m[4]
	for range mustAtoi(t, read) - 1 {
		p.keys("next step", kb.ArrowRight)
	}
	if got := eval[string](p, `document.activeElement.dataset.step`); got != read {
		t.Errorf("arrow keys reached step %q, want %s", got, read)
	}
	if got := p.text(fig + ` .trace-text tr.current td`); got != read {
		t.Errorf("the text trace marks step %q, want %s", got, read)
	}
	if got := p.text(fig + ` .tl-detail`); !strings.HasPrefix(got, "Step "+read+" at ") {
		t.Errorf("the detail line says %q", got)
	}
	p.keys("last step", kb.End)
	if got, want := eval[string](p, `document.activeElement.dataset.step`), fmt.Sprint(eval[int](p, fmt.Sprintf(`document.querySelector(%q).querySelectorAll('.tl-card').length`, fig))); got != want {
		t.Errorf("End reached step %q, want %s", got, want)
	}
	p.keys("first step", kb.Home)
	p.do("show the story", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).scrollIntoView({block: 'start'})`, fig)))
}

// keyLogLines checks that the logs open on the dossier's key lines, with
// the full log a click away and quoted values coloured whole.
func keyLogLines(t *testing.T, p *page) {
	const log = `#logs .log:first-of-type`
	all, key := p.count(log+` .log-line`), p.count(log+` .log-line.key`)
	if key == 0 || key != all {
		t.Errorf("the first log opens on %d lines of which %d are key lines, want only its key lines", all, key)
	}
	for _, line := range eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll(%q)].map((l) => l.textContent)`, log+` .log-line`)) {
		if !strings.Contains(line, "job=job-7") {
			t.Errorf("key line %q is not about job-7", line)
		}
	}
	p.click(log + ` .log-toggle`)
	if full := p.count(log + ` .log-line`); full <= all {
		t.Errorf("Show full log shows %d lines, want more than %d", full, all)
	}
	if p.count(log+` .log-line.key`) != key {
		t.Errorf("the full log does not keep the key lines marked")
	}
	if vals := eval[[]string](p, fmt.Sprintf(`[...document.querySelectorAll(%q)].map((v) => v.textContent).filter((v) => v.includes('event'))`, log+` .log-val`)); len(vals) != 1 || vals[0] != `"event loop blocked"` {
		t.Errorf("the quoted value is coloured as %q, want one value %s", vals, `"event loop blocked"`)
	}
	p.click(log + ` .log-toggle`)
}

// keyboardPath walks the desktop page with the keyboard: the editor's room
// and its way out, the explorer tree, a confirmation, Focus Mode and a splitter.
func keyboardPath(t *testing.T, p *page) {
	p.click(fmt.Sprintf(`.tree-item[data-path=%q]`, fixFile))
	p.waitFor("the lock helper", fmt.Sprintf(`!!(document.querySelector('.tab.active[data-path=%q]') && document.querySelector('.cm-line'))`, fixFile))
	lines := eval[int](p, `(() => {
		const box = document.querySelector('.cm-scroller').getBoundingClientRect();
		return [...document.querySelectorAll('.cm-content .cm-line')].filter((l) => { const r = l.getBoundingClientRect(); return r.top >= box.top && r.bottom <= box.bottom; }).length;
	})()`)
	if lines < 30 {
		t.Errorf("the editor shows %d whole lines at 1440x900, want at least 30", lines)
	}
	p.screenshot("journey-desktop-start")

	// Tab walks into the editor and out again without touching the file.
	doc := eval[string](p, `document.querySelector('.cm-content').textContent`)
	p.do("focus the last tab's close button", chromedp.Evaluate[chromedp.Void](`[...document.querySelectorAll('.tab-close')].pop().focus()`))
	p.keys("Tab into the editor", kb.Tab)
	if !eval[bool](p, `document.activeElement.classList.contains('cm-content')`) {
		t.Fatalf("Tab from the tabs does not reach the editor: %s", eval[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
	}
	// CodeMirror marks the editor focused when it handles the focus event.
	p.waitFor("the editor to take the focus", `!!document.querySelector('.cm-editor.cm-focused')`)
	if style := eval[string](p, `getComputedStyle(document.querySelector('.cm-editor')).outlineStyle`); style == "none" {
		t.Errorf("the focused editor has no focus ring")
	}
	p.keys("Tab out of the editor", kb.Tab)
	if eval[bool](p, `!!document.activeElement.closest('.cm-editor')`) {
		t.Errorf("a second Tab stays in the editor")
	}
	p.click(`.cm-content .cm-line`)
	p.keys("Escape", kb.Escape)
	p.keys("then Tab", kb.Tab)
	if eval[bool](p, `!!document.activeElement.closest('.cm-editor')`) {
		t.Errorf("Escape then Tab stays in the editor")
	}
	if got := eval[string](p, `document.querySelector('.cm-content').textContent`); got != doc {
		t.Errorf("walking through the editor with Tab changed the file")
	}

	// The explorer is one tab stop; arrow keys move and Enter opens.
	if n := p.count(`#explorer [tabindex="0"]`); n != 1 {
		t.Errorf("the explorer has %d tab stops, want 1", n)
	}
	p.do("focus the explorer", chromedp.Evaluate[chromedp.Void](`document.querySelector('#explorer [tabindex="0"]').focus()`))
	p.keys("first item", kb.Home)
	p.keys("down", kb.ArrowDown)
	if got := eval[string](p, `document.activeElement.dataset.path ?? ''`); got != "deploy/worker.yaml" {
		t.Errorf("ArrowDown from the first folder reached %q", got)
	}
	p.keys("open it", kb.Enter)
	p.waitFor("the opened file", `document.querySelector('.tab.active[data-path="deploy/worker.yaml"]')`)

	// A reset asks first, with Cancel focused.
	p.click(`#reset-file`)
	if got := eval[string](p, `document.activeElement.textContent`); got != "Cancel" {
		t.Errorf("the reset confirmation focuses %q, want Cancel", got)
	}
	p.keys("decline", kb.Escape)
	p.waitFor("the confirmation gone", `!document.querySelector('.confirm')`)

	// Escape leaves Focus Mode.
	p.click(`.topbar .focus-toggle`)
	p.waitFor("Focus Mode", `document.body.classList.contains('focus-mode')`)
	p.keys("leave Focus Mode", kb.Escape)
	p.waitFor("Focus Mode off", `!document.body.classList.contains('focus-mode')`)

	// The desk's splitter resizes with the arrow keys and hides it with Enter.
	width := eval[float64](p, `document.querySelector('#desk').offsetWidth`)
	p.do("focus the splitter", chromedp.Evaluate[chromedp.Void](`document.querySelector('.splitter[aria-controls="desk"]').focus()`))
	p.keys("narrower", kb.ArrowLeft)
	p.keys("narrower", kb.ArrowLeft)
	if got := eval[float64](p, `document.querySelector('#desk').offsetWidth`); got != width-32 {
		t.Errorf("two ArrowLeft on the splitter: desk %.0f px wide, want %.0f", got, width-32)
	}
	p.keys("hide", kb.Enter)
	p.waitFor("the desk hidden", `!document.querySelector('#desk').offsetParent && document.querySelector('.pane-toggle[aria-controls="desk"]').getAttribute('aria-pressed') === 'false'`)
	p.keys("show", kb.Enter)
	p.waitFor("the desk back", `!!document.querySelector('#desk').offsetParent`)
}

func mustAtoi(t *testing.T, s string) int {
	t.Helper()
	var n int
	if _, err := fmt.Sscan(s, &n); err != nil {
		t.Fatal(err)
	}
	return n
}
