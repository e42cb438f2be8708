package web_test

import (
	"fmt"
	"testing"
)

// browseByClass narrows the catalog to one failure class with the class bar:
// only that class's cards stay, the address keeps the class (a reload shows
// the same), the chip on each card names it, and "All classes" lists every
// dossier again.
func browseByClass(t *testing.T, p *page) {
	p.open("/")
	p.waitFor("the class bar", `document.querySelector('.class-choice[data-class="lease-expiry"]') && document.querySelector('.card-link')`)
	all := p.count(`.cards .card`)
	if n := p.count(`.class-choice`); n < 3 {
		t.Fatalf("the class bar offers %d choices, want All and one per class", n)
	}
	if got := eval[string](p, `document.querySelector('.class-choice[aria-pressed="true"]')?.dataset.class ?? 'none'`); got != "" {
		t.Errorf("before a choice the bar has %q pressed, want All classes", got)
	}
	p.click(`.class-choice[data-class="lease-expiry"]`)
	p.waitFor("the lease-expiry dossiers", `location.search === '?class=lease-expiry' && document.querySelector('.cards').getAttribute('aria-busy') === 'false'`)
	shown := eval[[]string](p, `[...document.querySelectorAll('.cards .card .chip.failure-class')].map((c) => c.dataset.class)`)
	if len(shown) == 0 || len(shown) >= all {
		t.Errorf("the lease-expiry choice shows %d of %d cards", len(shown), all)
	}
	for _, c := range shown {
		if c != "lease-expiry" {
			t.Errorf("the lease-expiry choice shows a card of class %q", c)
		}
	}
	if got := p.text(`.search-status`); got == "" {
		t.Errorf("the status line does not say what is shown")
	}
	p.expectNoAxeViolations("the catalog browsed by class")
	p.screenshot("catalog-by-class")

	p.open("/?class=lease-expiry")
	p.waitFor("the reloaded class", `document.querySelector('.class-choice[data-class="lease-expiry"][aria-pressed="true"]') && document.querySelector('.cards').getAttribute('aria-busy') === 'false'`)
	if n := p.count(`.cards .card`); n != len(shown) {
		t.Errorf("a reload of ?class=lease-expiry shows %d cards, want %d", n, len(shown))
	}
	p.click(`.class-choice[data-class=""]`)
	p.waitFor("every dossier again", fmt.Sprintf(`location.search === '' && document.querySelectorAll('.cards .card').length === %d`, all))
}
