package workspace

import (
	"strings"
	"testing"
	"time"

	"github.com/racecase/racecase/challenges"
)

// samplePlaybook is a playbook with every section and some Markdown in its text.
func samplePlaybook(slug, title string) Playbook {
	return Playbook{
		Slug: slug, Title: title, SolvedAt: time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC),
		TLDR:    "Claim with *one* operation on claim:<job>.",
		Error:   "worker=blue result=sent\nsee ``` in logs",
		Steps:   []challenges.PlaybookStep{{Action: "Count the sends.", Expected: "Two for one job."}},
		UseWhen: []string{"Two workers share a queue."},
		NotFor: []LookAlike{
			{When: "A lease ran out.", Really: "Lease expiry.", Dossier: &DossierLink{Slug: "outreach-lease-expiry", Title: "Outreach"}},
			{When: "The producer sent twice.", Really: "A double publish."},
		},
		VariantPhrasings: []string{"two workers, one job"},
		Why:              "Round trips.",
		EdgeCases:        []string{"Sleeping does not help."},
		Provenance:       []challenges.Reference{{Title: "Redis SET", URL: "https://redis.io/docs/latest/commands/set/"}},
	}
}

func TestPlaybookMarkdown(t *testing.T) {
	md := samplePlaybook("job-lock-double-send", "Two sends [draft]").Markdown()
	for _, want := range []string{
		"# Two sends \\[draft\\]\n\n## TL;DR\n\nClaim with \\*one\\* operation on claim:\\<job\\>.\n",
		"## Error\n\n````text\nworker=blue result=sent\nsee ``` in logs\n````\n",
		"## Steps\n\n1. Count the sends.\n   Expected: Two for one job.\n",
		"## Use this when\n\n- Two workers share a queue.\n",
		"- A lease ran out. **What it really is:** Lease expiry. (racecase dossier: Outreach, `outreach-lease-expiry`)\n- The producer sent twice. **What it really is:** A double publish.\n",
		"## Variant phrasings\n\n- \"two workers, one job\"\n",
		"## Why it happens\n\nRound trips.\n", "## Edge cases\n\n- Sleeping does not help.\n",
		"## Provenance\n\n- [Redis SET](https://redis.io/docs/latest/commands/set/)\n",
		"_From the racecase dossier `job-lock-double-send`, solved on 1 May 2026._\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%s", want, md)
		}
	}
}

func TestShelfMarkdown(t *testing.T) {
	md := ShelfMarkdown([]Playbook{samplePlaybook("a", "First"), samplePlaybook("b", "Second")})
	if !strings.HasPrefix(md, "# racecase playbooks\n\nThe on-call playbooks of the 2 dossiers you solved.\n") ||
		!strings.Contains(md, "\n---\n\n## First\n\n### TL;DR\n") || !strings.Contains(md, "\n---\n\n## Second\n") {
		t.Errorf("shelf Markdown:\n%s", md)
	}
	if empty := ShelfMarkdown(nil); !strings.Contains(empty, "the 0 dossiers you solved") {
		t.Errorf("empty shelf: %q", empty)
	}
}
