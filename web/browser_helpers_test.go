package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// chromiumPath is where Debian's chromium package installs the browser.
const chromiumPath = "/usr/bin/chromium"

// stepTimeout bounds one wait in the page; runs in containers finish well
// within it.
const stepTimeout = 2 * time.Minute

// requireChromium returns the browser to drive. Without it the test is
// skipped, unless REQUIRE_BROWSER=1 (as in CI) makes that a failure.
func requireChromium(t *testing.T) string {
	t.Helper()
	path := chromiumPath
	if p := os.Getenv("CHROMIUM"); p != "" {
		path = p
	}
	if _, err := exec.LookPath(path); err != nil {
		if os.Getenv("REQUIRE_BROWSER") == "1" {
			t.Fatalf("REQUIRE_BROWSER=1 but there is no browser at %s: %v (apt-get install chromium)", path, err)
		}
		t.Skipf("no browser at %s (apt-get install chromium); set REQUIRE_BROWSER=1 to make this a failure", path)
	}
	return path
}

// page is one browser tab driven by a test.
type page struct {
	t    *testing.T
	ctx  context.Context
	base string

	mu         sync.Mutex
	exceptions []string
}

// newPage starts a fresh headless browser (its own profile, so its own
// learner) with a window of width×height, and returns its tab. Its temporary
// files (the singleton socket Chromium leaves behind when it is stopped) go to
// a folder of its own, removed after it; the folder's path is short, because a
// socket's path may not be longer than 107 bytes.
func newPage(t *testing.T, chromium, base string, width, height int) *page {
	t.Helper()
	tmp, err := os.MkdirTemp("", "racecase-chromium-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(tmp) })
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Env("TMPDIR="+tmp),
		chromedp.WindowSize(width, height),
	)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() {
		cancel()
		cancelAlloc()
	})
	p := &page{t: t, ctx: ctx, base: base}
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(width), int64(height))); err != nil {
		t.Fatalf("start the browser: %v", err)
	}
	// Every uncaught exception in the page fails the test when it ends.
	exceptions := chromedp.Events(ctx, runtime.ExceptionThrown)
	go func() {
		for ev, err := range exceptions {
			if err != nil {
				return
			}
			p.mu.Lock()
			p.exceptions = append(p.exceptions, exceptionText(ev))
			p.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, e := range p.exceptions {
			t.Errorf("uncaught exception in the page: %s", e)
		}
	})
	return p
}

// exceptionText describes an uncaught exception.
func exceptionText(ev runtime.EventExceptionThrown) string {
	d := ev.ExceptionDetails
	if d.Exception != nil && d.Exception.Description != "" {
		return d.Exception.Description
	}
	return fmt.Sprintf("%s (line %d)", d.Text, d.LineNumber)
}

// do runs actions, failing the test on error.
func (p *page) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		p.t.Fatalf("%s: %v", what, err)
	}
}

// open navigates to a path of the app.
func (p *page) open(path string) {
	p.t.Helper()
	p.do("open "+path, chromedp.Navigate(p.base+path))
}

// click clicks the element a CSS selector names, once it is visible.
func (p *page) click(sel string) {
	p.t.Helper()
	p.do("click "+sel, chromedp.WaitVisible(chromedp.CSS(sel)), chromedp.Click(chromedp.CSS(sel)))
}

// waitFor waits until a JavaScript expression is truthy.
func (p *page) waitFor(what, expr string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[chromedp.Void](expr, chromedp.WithPollingInterval(100*time.Millisecond), chromedp.WithPollingTimeout(stepTimeout))); err != nil {
		p.t.Fatalf("waiting for %s: %v\n%s", what, err, p.state())
	}
}

// state describes what the page shows, for a failed wait: its address, its
// status line and the last lines of its output panel.
func (p *page) state() string {
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`[
		'page: ' + location.pathname + ' (' + document.readyState + ')',
		'status: ' + (document.querySelector('#ws-status')?.textContent ?? '-'),
		'output: ' + [...document.querySelectorAll('.console .ln')].slice(-8).map((l) => l.textContent).join(' | '),
	].join('\n')`))
	if err != nil {
		return "the page did not answer: " + err.Error()
	}
	return s
}

// eval evaluates an expression (awaiting a promise) into T.
func eval[T any](p *page, expr string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, stepTimeout)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluate %s: %v", expr, err)
	}
	return v
}

// text returns the text content of the first element a selector names.
func (p *page) text(sel string) string {
	p.t.Helper()
	b, _ := json.Marshal(sel)
	return eval[string](p, fmt.Sprintf(`(document.querySelector(%s)?.textContent ?? "")`, b))
}

// count returns how many elements a selector names.
func (p *page) count(sel string) int {
	p.t.Helper()
	b, _ := json.Marshal(sel)
	return eval[int](p, fmt.Sprintf(`document.querySelectorAll(%s).length`, b))
}

// watchSave starts recording the save pill's states in window.__saveStates.
func (p *page) watchSave() {
	p.t.Helper()
	p.do("watch the save state", chromedp.Evaluate[chromedp.Void](`window.__saveStates = [];
		window.__saveWatch?.disconnect();
		window.__saveWatch = new MutationObserver(() => __saveStates.push(document.querySelector('.save-pill').dataset.state));
		__saveWatch.observe(document.querySelector('.save-pill'), {attributes: true})`))
}

// waitSaved waits, after watchSave, until a save went out and everything is saved.
func (p *page) waitSaved(what string) {
	p.t.Helper()
	p.waitFor(what, `__saveStates.includes('saving') && document.querySelector('.save-pill').dataset.state === 'saved'`)
}

// keys presses keys with modifiers in the focused element.
func (p *page) keys(what, keys string, mods ...chromedp.Modifier) {
	p.t.Helper()
	p.do(what, chromedp.KeyEvent(keys, chromedp.KeyModifiers(mods...)))
}

// insertText types text into the focused element as the browser's own
// text input does (as a paste or an input method would).
func (p *page) insertText(text string) {
	p.t.Helper()
	p.do("insert text", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, input.InsertText, input.InsertTextParams{Text: text})
		return err
	}))
}

// screenshot saves the viewport as screenshots/<name>.png at the repository root.
func (p *page) screenshot(name string) {
	p.t.Helper()
	time.Sleep(300 * time.Millisecond) // let transitions settle
	buf, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot %s: %v", name, err)
	}
	dir := filepath.Join("..", "screenshots")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		p.t.Fatal(err)
	}
	file := filepath.Join(dir, name+".png")
	if err := os.WriteFile(file, buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot %s", file)
}

// fetchJSON runs fetch in the page (with the learner's cookie) and returns the JSON answer.
func fetchJSON[T any](p *page, method, path string, body any) T {
	p.t.Helper()
	init := fmt.Sprintf(`{method: %q, headers: {"Content-Type": "application/json", "Accept": "application/json"}}`, method)
	if body != nil {
		b, _ := json.Marshal(body)
		bs, _ := json.Marshal(string(b))
		init = fmt.Sprintf(`{method: %q, headers: {"Content-Type": "application/json", "Accept": "application/json"}, body: %s}`, method, bs)
	}
	pb, _ := json.Marshal(path)
	return eval[T](p, fmt.Sprintf(`fetch(%s, %s).then(r => r.json())`, pb, init))
}
