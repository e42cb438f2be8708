package challenges

import (
	"fmt"
	"strings"
)

// checkPlaybook checks what the schema cannot about the playbook: a
// look-alike is never the dossier itself, and no two variant phrasings say
// the same thing. Whether a linked dossier exists, and whether public fields
// give the fix away, is for racecase lint, which sees the whole catalog.
func (c *checker) checkPlaybook(d *Dossier) {
	for i, l := range d.Playbook.NotFor {
		if l.Dossier != "" && l.Dossier == d.Slug {
			c.at(fmt.Sprintf("playbook.not_for[%d].dossier", i), "a look-alike links to this dossier itself",
				"name the other dossier the look-alike is about, or remove the link")
		}
	}
	seen := map[string]int{}
	for i, v := range d.Playbook.VariantPhrasings {
		key := strings.Join(strings.Fields(strings.ToLower(v)), " ")
		if j, dup := seen[key]; dup {
			c.at(fmt.Sprintf("playbook.variant_phrasings[%d]", i),
				fmt.Sprintf("repeats variant_phrasings[%d]", j), "say it in other words, or remove it")
			continue
		}
		seen[key] = i
	}
}
