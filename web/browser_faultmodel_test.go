package web_test

import (
	"strings"
	"testing"

	"github.com/racecase/racecase/challenges"
)

// TestBrowserFaultModel reads the lease dossier's fault model as part of its
// problem statement, on a desktop and on a phone: a labelled panel beside the
// architecture, one term and sentence per kind of fault, every remote with its
// latency range, how much work each worker takes on at once, the lease with
// its key, unbounded pauses and the note on scaled time; on a phone nothing
// scrolls sideways.
func TestBrowserFaultModel(t *testing.T) {
	chromium := requireChromium(t)
	base := startServer(t)
	d, err := challenges.Load(challenges.FS, leaseDossier)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []struct {
		name          string
		width, height int
	}{{"desktop 1280x800", 1280, 800}, {"phone 390x844", 390, 844}} {
		t.Run(size.name, func(t *testing.T) {
			p := newPage(t, chromium, base, size.width, size.height)
			openDossier(p, leaseDossier)
			readFaultModel(t, p, d.FaultModel)
			if size.width < 500 {
				wide := eval[bool](p, `document.documentElement.scrollWidth > window.innerWidth || [...document.querySelectorAll('#fault-model, #fault-model *')].some((el) => el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible')`)
				if wide {
					t.Error("the fault model makes the phone page scroll sideways")
				}
				p.screenshot("fault-model-phone")
			} else {
				p.screenshot("fault-model")
			}
			p.expectNoAxeViolations("the dossier with its fault model")
		})
	}
}

// readFaultModel checks the fault model panel against the dossier's.
func readFaultModel(t *testing.T, p *page, m challenges.FaultModel) {
	const panel = `#fault-model`
	p.waitFor("the fault model", `document.querySelector('#fault-model .fm-rows')`)
	if name := eval[string](p, `document.getElementById(document.querySelector('#fault-model').getAttribute('aria-labelledby'))?.textContent`); name != "Fault model" {
		t.Errorf("the panel's accessible name is %q, want Fault model", name)
	}
	if prev := eval[string](p, `document.querySelector('#fault-model').previousElementSibling?.id ?? ''`); prev != "architecture" {
		t.Errorf("the fault model follows #%s, not the architecture", prev)
	}
	terms := eval[[]string](p, `[...document.querySelectorAll('#fault-model dt')].map((dt) => dt.textContent)`)
	if got := strings.Join(terms, "|"); got != "Workers|Remotes|Delivery|Leases|Pauses|Crashes" {
		t.Errorf("the fault model's terms are %q", got)
	}
	if n := p.count(panel + ` dt + dd`); n != len(terms) {
		t.Errorf("%d terms have their description, want %d", n, len(terms))
	}
	remotes := eval[[]string](p, `[...document.querySelectorAll('#fault-model .fm-remote')].map((li) => li.textContent)`)
	if len(remotes) != len(m.Remotes) {
		t.Fatalf("%d remotes shown, want %d: %q", len(remotes), len(m.Remotes), remotes)
	}
	for i, r := range m.Remotes {
		if !strings.HasPrefix(remotes[i], r.Name+" "+r.Label+": a call takes ") || !strings.Contains(remotes[i], string(r.Latency.Max)) {
			t.Errorf("remote %d reads %q, want %s (%s) with its latency up to %s", i, remotes[i], r.Name, r.Label, r.Latency.Max)
		}
	}
	if !strings.Contains(remotes[1], "0.8 s to 1 s") {
		t.Errorf("the enrichment remote %q does not give its latency range", remotes[1])
	}
	row := func(term string) string {
		return eval[string](p, `[...document.querySelectorAll('#fault-model dt')].find((dt) => dt.textContent === '`+term+`')?.nextElementSibling?.textContent ?? ''`)
	}
	if got := row("Workers"); !strings.Contains(got, "2 separate processes") || !strings.Contains(got, "Each handles many pieces of work at once") {
		t.Errorf("Workers reads %q", got)
	}
	if got := row("Leases"); !strings.Contains(got, m.Leases[0].Key) || !strings.Contains(got, "lasts "+string(m.Leases[0].TTL)) || !strings.Contains(got, "store’s clock") {
		t.Errorf("Leases reads %q", got)
	}
	if got := row("Delivery"); !strings.Contains(got, "again after 2 s") || !strings.Contains(got, "while the first is still being handled") {
		t.Errorf("Delivery reads %q", got)
	}
	if got := row("Pauses"); !strings.Contains(got, "for any length") {
		t.Errorf("Pauses reads %q", got)
	}
	if got := p.text(panel + ` .fm-note`); got != strings.Join(strings.Fields(m.Note), " ") {
		t.Errorf("the note reads %q", got)
	}
}
