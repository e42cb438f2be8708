package challenges

import (
	"fmt"
	"path"
)

// checkMutantMarks checks the mutants marked equivalent: each names a mutant
// the reference fix has now, once. A mark whose mutant is gone is stale: the
// fix changed and the reason may no longer hold.
func (c *checker) checkMutantMarks(d *Dossier) {
	if d.Mutants == nil || len(d.Mutants.Equivalent) == 0 {
		return
	}
	marks := d.Mutants.Equivalent
	c.unique("mutants.equivalent", "mutant id", len(marks), func(i int) string { return marks[i].ID })
	fix := c.overlays[SolutionDir]
	if c.repo == nil || fix == nil {
		return
	}
	mutants, err := GenerateMutants(c.repo, fix)
	if err != nil {
		c.inFile(path.Join(c.dir, SolutionDir), fmt.Sprintf("mutants cannot be derived: %v", err),
			"fix the syntax of the reference fix")
		return
	}
	ids := map[string]bool{}
	for _, m := range mutants {
		ids[m.ID] = true
	}
	for i, mark := range marks {
		if mark.ID != "" && !ids[mark.ID] {
			c.at(fmt.Sprintf("mutants.equivalent[%d].id", i), fmt.Sprintf("no mutant of the reference fix has the id %q", mark.ID),
				"the reference fix changed since the mark was written, or the id is mistyped: run racecase validate to list the mutants, then update or remove the mark")
		}
	}
}
