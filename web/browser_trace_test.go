package web_test

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/racecase/racecase/challenges"
)

const (
	leaseDossier = "outreach-lease-expiry"
	// leaseDecoy has no heartbeat: a batch outlasts its lease, another
	// worker takes the shard, and the first goes on sending.
	leaseDecoy = "decoys/no-heartbeat"
)

// leaseStory matches the summary of a lease that ran out while its holder waited on a call.
var leaseStory = regexp.MustCompile(`^outreach-0's lease on claim:\S+ ran out at step \d+ while its lookup was still in flight \(since \d+ ms\); outreach-1 took it at step \d+, and outreach-0 still went on to send \S+ at step \d+\.$`)

// TestBrowserTraceExplains submits a known non-fix of the lease dossier and
// reads its failing interleaving as a learner would: the frozen worker and
// the lease running out are drawn, pointing at a step highlights the line of
// code that made the call, and its link (reached by keyboard) opens that
// line in the editor.
func TestBrowserTraceExplains(t *testing.T) {
	chromium := requireChromium(t)
	base := startServer(t)
	t.Run("desktop 1440x900", func(t *testing.T) { traceOnDesktop(t, newPage(t, chromium, base, 1440, 900)) })
	t.Run("phone 390x844", func(t *testing.T) { traceOnPhone(t, newPage(t, chromium, base, 390, 844)) })
}

// submitLeaseDecoy submits the lease dossier's known non-fix and waits for its failure.
func submitLeaseDecoy(t *testing.T, p *page, phone bool) {
	openDossier(p, leaseDossier)
	overlayWorkspace(p, leaseDossier, leaseDecoy)
	showCode(p, phone)
	p.click(`#submit-fix`)
	if v := lastResults(p, "submit"); v != "fail" {
		t.Fatalf("submission of %s: verdict %q, want fail", leaseDecoy, v)
	}
}

func traceOnDesktop(t *testing.T, p *page) {
	submitLeaseDecoy(t, p, false)
	const fig = `.results .test.fail .timeline-figure`
	if got := p.text(fig + ` .tl-story`); !leaseStory.MatchString(got) {
		t.Errorf("the summary %q does not tell of a lease that ran out under its holder", got)
	}
	for sel, what := range map[string]string{
		fig + ` .tl-expiry`:                  "a line where the lease ran out",
		fig + ` .tl-card.expiry.story`:       "the lease's expiry as the story's step",
		fig + ` .tl-bar.story`:               "the call in flight across the expiry",
		`.results .tl-frozen`:                "a frozen stretch of a worker's lane",
		`.results .tl-card.freeze`:           "a freeze and a wake as steps",
		`.results .lg.frozen`:                "the legend of a frozen worker",
		fig + ` .trace-text .site-link`:      "a call site in the text trace",
		fig + ` .trace-text td:nth-child(4)`: "the request of each step",
	} {
		if p.count(sel) == 0 {
			t.Errorf("the timeline shows no %s (%s)", what, sel)
		}
	}
	if n := p.count(fig + ` .trace-text .whole-value summary`); n == 0 {
		t.Errorf("no value cut short in the text trace can be read whole")
	}
	p.expectNoAxeViolations("the failed results with call sites")
	p.do("show the story", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).scrollIntoView({block: 'start'})`, fig)))
	p.screenshot("trace-lease-desktop")
	p.do("show the frozen worker", chromedp.Evaluate[chromedp.Void](`document.querySelector('.results .tl-frozen').closest('.timeline-figure').scrollIntoView({block: 'start'})`))
	p.screenshot("trace-frozen-worker-desktop")

	// Pointing at a step whose file is open highlights the line that made the call.
	type step struct {
		Step string `json:"step"`
		Site string `json:"site"`
	}
	open := eval[[]string](p, `[...document.querySelectorAll('.tabs .tab')].map((t) => t.dataset.path)`)
	steps := eval[[]step](p, fmt.Sprintf(`[...document.querySelectorAll(%q)].map((r) => ({step: r.dataset.step, site: r.querySelector('.site-link')?.dataset.site ?? ''}))`, fig+` .trace-text tr[data-step]`))
	var pointed, other step
	for _, s := range steps {
		path, _, _ := strings.Cut(s.Site, ":")
		switch {
		case s.Site == "":
		case pointed.Site == "" && slices.Contains(open, path):
			pointed = s
		case other.Site == "" && !slices.Contains(open, path):
			other = s
		}
	}
	if pointed.Site == "" || other.Site == "" {
		t.Fatalf("no step made its call from an open file (open: %q) and another from a closed one: %v", open, steps)
	}
	path, line := siteLine(t, pointed.Site)
	p.click(fmt.Sprintf(`.tabs .tab[data-path=%q] .tab-main`, path))
	card := fmt.Sprintf(`%s .tl-card[data-step=%q]`, fig, pointed.Step)
	p.do("focus a step", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).focus()`, fig+` .tl-card[tabindex="0"]`)))
	for range mustAtoi(t, pointed.Step) - 1 {
		p.keys("next step", kb.ArrowRight)
	}
	if got := eval[string](p, `document.activeElement.dataset.step`); got != pointed.Step {
		t.Fatalf("arrow keys reached step %q, want %s", got, pointed.Step)
	}
	p.waitFor("the line marked", fmt.Sprintf(`!!(document.querySelector('.tab.active[data-path=%q]') && document.querySelector('.cm-trace-line'))`, path))
	if got, want := eval[string](p, `document.querySelector('.cm-trace-line').textContent`), fileLine(p, path, line); got != want {
		t.Errorf("focusing step %s marks the line %q, want line %d of %s: %q", pointed.Step, got, line, path, want)
	}
	if !eval[bool](p, fmt.Sprintf(`document.activeElement === document.querySelector(%q)`, card)) {
		t.Errorf("marking the line took the focus away from the step")
	}

	// Tab reaches the step's link; Enter opens its file at that line and moves focus there.
	path, line = siteLine(t, other.Site)
	p.keys("back to the first step", kb.Home)
	for range mustAtoi(t, other.Step) - 1 {
		p.keys("next step", kb.ArrowRight)
	}
	p.keys("Tab to the call site", kb.Tab)
	name := fmt.Sprintf("%s line %d", path, line)
	if got := eval[string](p, `document.activeElement.getAttribute('aria-label') ?? ''`); got != name {
		t.Fatalf("Tab from step %s reaches %q, want the link %q", other.Step, got, name)
	}
	p.keys("open the call site", kb.Enter)
	p.waitFor("the editor at the call site", fmt.Sprintf(`document.querySelector('.tab.active[data-path=%q]') && document.activeElement.classList.contains('cm-content')`, path))
	if got := p.text(`.cm-activeLineGutter`); got != fmt.Sprint(line) {
		t.Errorf("the cursor is on line %q, want %d", got, line)
	}
	if got, want := p.text(`.cm-trace-line`), fileLine(p, path, line); got != want {
		t.Errorf("the opened line is marked as %q, want %q", got, want)
	}
	p.expectNoAxeViolations("the editor opened at a call site")
	p.screenshot("trace-call-site-opened")
}

// traceOnPhone follows a call site from the text trace: the page turns to
// the Code view with the editor at that line.
func traceOnPhone(t *testing.T, p *page) {
	submitLeaseDecoy(t, p, true)
	p.waitFor("the results view", `document.querySelector('#view-tab-results').getAttribute('aria-selected') === 'true'`)
	const link = `.results .test.fail .trace-text .site-link`
	site := eval[string](p, fmt.Sprintf(`document.querySelector(%q).dataset.site`, link))
	path, line := siteLine(t, site)
	p.do("show the call site link", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).scrollIntoView({block: 'center'})`, link)))
	p.screenshot("trace-phone-text-trace")
	p.click(link)
	p.waitFor("the Code view at the call site", fmt.Sprintf(`document.querySelector('#view-tab-code').getAttribute('aria-selected') === 'true'
		&& document.querySelector('.tab.active[data-path=%q]') && document.activeElement.classList.contains('cm-content')`, path))
	if got := p.text(`.cm-activeLineGutter`); got != fmt.Sprint(line) {
		t.Errorf("the cursor is on line %q, want %d", got, line)
	}
	if top := eval[float64](p, `document.querySelector('.cm-trace-line').getBoundingClientRect().top`); top < 0 || top > 844 {
		t.Errorf("the marked line is at %.0f px, out of view", top)
	}
	p.screenshot("trace-phone-call-site-opened")
}

// openDossier opens a dossier from the catalog and waits for its workspace.
func openDossier(p *page, slug string) {
	p.t.Helper()
	p.open("/")
	card := fmt.Sprintf(`.card[data-slug=%q] .card-link`, slug)
	p.waitFor(slug+"'s card", fmt.Sprintf(`document.querySelector(%q)`, card))
	p.click(card)
	p.waitFor("the dossier", `document.querySelector('#dossier-title')`)
	p.waitFor("the workspace to be ready", `document.querySelector('#ws-status')?.textContent === 'Ready' && document.querySelector('.workspace .tree-item.file')`)
}

// overlayWorkspace saves, through the API, every file an overlay of the
// dossier ("solution" or "decoys/<name>") changes in the learner's
// workspace, and waits until the page has them.
func overlayWorkspace(p *page, slug, overlay string) {
	p.t.Helper()
	d, err := challenges.Load(challenges.FS, slug)
	if err != nil {
		p.t.Fatal(err)
	}
	repo, err := d.RepoFiles(challenges.FS)
	if err != nil {
		p.t.Fatal(err)
	}
	files, err := d.Overlay(challenges.FS, overlay)
	if err != nil {
		p.t.Fatal(err)
	}
	ws := eval[string](p, fmt.Sprintf(`fetch('/api/workspaces').then(r => r.json()).then(j => j.workspaces.find((w) => w.dossier === %q).id)`, slug))
	type file struct {
		Version int64 `json:"version"`
	}
	for _, path := range slices.Sorted(maps.Keys(files)) {
		if string(files[path]) == string(repo[path]) {
			continue
		}
		url := "/api/workspaces/" + ws + "/files/" + path
		cur := fetchJSON[file](p, "GET", url, nil)
		fetchJSON[file](p, "PUT", url, map[string]any{"content": string(files[path]), "base_version": cur.Version})
		p.waitFor(path+" changed in the explorer", fmt.Sprintf(`document.querySelector('.tree-item.file.changed[data-path=%q]')`, path))
	}
}

// siteLine splits a link's data-site ("path:line").
func siteLine(t *testing.T, site string) (string, int) {
	t.Helper()
	i := strings.LastIndex(site, ":")
	if i < 0 {
		t.Fatalf("call site %q has no line", site)
	}
	return site[:i], mustAtoi(t, site[i+1:])
}

// fileLine returns line n (from 1) of a workspace file as the API holds it.
func fileLine(p *page, path string, n int) string {
	p.t.Helper()
	ws := eval[string](p, `fetch('/api/workspaces').then(r => r.json()).then(j => j.workspaces[0].id)`)
	f := fetchJSON[struct {
		Content string `json:"content"`
	}](p, "GET", "/api/workspaces/"+ws+"/files/"+path, nil)
	lines := strings.Split(f.Content, "\n")
	if n < 1 || n > len(lines) {
		p.t.Fatalf("%s has %d lines, no line %d", path, len(lines), n)
	}
	return lines[n-1]
}
