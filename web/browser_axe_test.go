package web_test

import (
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/chromedp/chromedp"
)

// axeScript is axe-core's browser bundle, a dev dependency of web/ (npm ci).
var axeScript = sync.OnceValues(func() (string, error) {
	b, err := os.ReadFile(filepath.Join("node_modules", "axe-core", "axe.min.js"))
	return string(b), err
})

// axeViolations runs axe-core on the page as it is now and returns one line
// per violated rule: its id, what it asks, and the first elements at fault.
func (p *page) axeViolations() []string {
	p.t.Helper()
	src, err := axeScript()
	if err != nil {
		p.t.Fatalf("axe-core is missing (npm ci in web/): %v", err)
	}
	if !eval[bool](p, `typeof window.axe === 'object'`) {
		p.do("load axe-core", chromedp.Evaluate[chromedp.Void](src))
	}
	return eval[[]string](p, `axe.run(document, {resultTypes: ['violations']}).then((r) => r.violations.map((v) =>
		v.id + ': ' + v.help + ' at ' + v.nodes.slice(0, 4).map((n) => n.target.join(' ')).join(' | ')))`)
}

// expectNoAxeViolations fails the test for every rule axe-core finds violated.
func (p *page) expectNoAxeViolations(where string) {
	p.t.Helper()
	if v := p.axeViolations(); len(v) > 0 {
		p.t.Errorf("axe-core on %s finds %d violated rules:\n%s", where, len(v), strings.Join(v, "\n"))
	}
}
