package challenges

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
)

// checker collects the problems of one dossier folder.
type checker struct {
	fsys fs.FS
	dir  string    // the dossier folder, e.g. "job-lock-double-send"
	file string    // dir/dossier.yaml
	tree *yamlTree // nil until dossier.yaml parses

	repo     map[string][]byte            // repo/ files; nil if repo/ is unreadable
	overlays map[string]map[string][]byte // "solution", "decoys/<name>" → overlay files

	ps Problems
}

// at reports a problem with a dossier.yaml field, at the field's line.
func (c *checker) at(field, msg, fix string) {
	c.ps = append(c.ps, Problem{File: c.file, Field: field, Line: c.tree.line(field), Message: msg, Fix: fix})
}

// inFile reports a problem with a file or folder other than dossier.yaml.
func (c *checker) inFile(file, msg, fix string) {
	c.ps = append(c.ps, Problem{File: file, Message: msg, Fix: fix})
}

// checkDossier checks what the schema cannot: cross-references inside the
// dossier and the files it names. Empty values are left to the schema.
func (c *checker) checkDossier(d *Dossier) {
	if d.Slug != "" && d.Slug != c.dir {
		c.at("slug", fmt.Sprintf("slug %q does not match the folder name %q", d.Slug, c.dir),
			fmt.Sprintf("set slug: %s, or rename the folder to %s", c.dir, d.Slug))
	}
	c.checkGraph(d.Architecture)
	c.checkHypotheses(d)
	c.checkWrongTurns(d)
	c.checkEvidence(d)
	c.checkRepoPaths(d)
	c.checkReadonly(d.ReadonlyFiles)
	c.checkSource(d.Source)
	c.checkPlaybook(d)
	c.checkMutantMarks(d)
}

// checkSource checks what the schema cannot about where repo/ came from.
func (c *checker) checkSource(s *Source) {
	if s == nil || s.Path == "" {
		return
	}
	if msg := badPath(s.Path); msg != "" {
		c.at("source.path", msg, "write the folder's path inside the source repository, like services/worker")
	}
}

// checkGraph checks that node ids are unique and that edges name nodes.
func (c *checker) checkGraph(a Architecture) {
	ids := c.unique("architecture.nodes", "node id", len(a.Nodes), func(i int) string { return a.Nodes[i].ID })
	for i, e := range a.Edges {
		c.known(fmt.Sprintf("architecture.edges[%d].from", i), "node", e.From, ids)
		c.known(fmt.Sprintf("architecture.edges[%d].to", i), "node", e.To, ids)
	}
}

// checkHypotheses checks that hypothesis ids are unique and that the secret
// names one of them.
func (c *checker) checkHypotheses(d *Dossier) {
	ids := c.unique("hypotheses", "hypothesis id", len(d.Hypotheses), func(i int) string { return d.Hypotheses[i].ID })
	c.known("secret.correct_hypothesis", "hypothesis", d.Secret.CorrectHypothesis, ids)
}

// unique reports repeated ids in a list and returns the ids in order.
func (c *checker) unique(list, what string, n int, id func(int) string) []string {
	var ids []string
	first := map[string]int{}
	for i := range n {
		v := id(i)
		if v == "" {
			continue
		}
		if j, dup := first[v]; dup {
			c.at(fmt.Sprintf("%s[%d].id", list, i), fmt.Sprintf("duplicate %s %q (also %s[%d])", what, v, list, j),
				"give every entry its own id")
			continue
		}
		first[v] = i
		ids = append(ids, v)
	}
	return ids
}

// known reports a reference to an id that is not among ids.
func (c *checker) known(field, what, v string, ids []string) {
	if v == "" || slices.Contains(ids, v) {
		return
	}
	fix := fmt.Sprintf("use one of the %s ids", what)
	if near := closest(v, ids); near != "" {
		fix = fmt.Sprintf("did you mean %q?", near)
	}
	c.at(field, fmt.Sprintf("unknown %s %q (known: %s)", what, v, strings.Join(ids, ", ")), fix)
}

// checkEvidence reads and parses every log and metric file.
func (c *checker) checkEvidence(d *Dossier) {
	for i := range d.Logs {
		l := &d.Logs[i]
		field := fmt.Sprintf("logs[%d].file", i)
		data, ok := c.evidence(field, l.File)
		if !ok {
			continue
		}
		lines, p := parseLog(data)
		if p != nil {
			p.File, p.Field = path.Join(c.dir, l.File), field
			c.ps = append(c.ps, *p)
		}
		l.Lines = lines
		if l.Key != "" && !slices.ContainsFunc(lines, func(line string) bool { return strings.Contains(line, l.Key) }) {
			c.at(fmt.Sprintf("logs[%d].key", i), fmt.Sprintf("no line of %s contains %q", l.File, l.Key),
				"set key to text that the log's key lines contain (e.g. job=job-7), or remove it")
		}
	}
	for i := range d.Metrics {
		m := &d.Metrics[i]
		field := fmt.Sprintf("metrics[%d].file", i)
		data, ok := c.evidence(field, m.File)
		if !ok {
			continue
		}
		values, ps := parseMetrics(data)
		for _, p := range ps {
			p.File, p.Field = path.Join(c.dir, m.File), field
			c.ps = append(c.ps, p)
		}
		m.Values = values
	}
}

// evidence reads an evidence file named by field; ok is false when the name
// or the file is wrong (and reported).
func (c *checker) evidence(field, name string) (data []byte, ok bool) {
	if name == "" {
		return nil, false
	}
	if msg := badPath(name); msg != "" {
		c.at(field, msg, "write a path under evidence/, like evidence/worker.job.log")
		return nil, false
	}
	data, err := fs.ReadFile(c.fsys, path.Join(c.dir, name))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		c.at(field, fmt.Sprintf("file %q does not exist", name),
			fmt.Sprintf("create %s/%s or fix the path", c.dir, name))
		return nil, false
	case err != nil:
		c.at(field, fmt.Sprintf("cannot read %q: %v", name, err), "make it a readable file")
		return nil, false
	}
	return data, true
}

// checkRepoPaths checks that every path said to be inside repo/ is a file there.
func (c *checker) checkRepoPaths(d *Dossier) {
	for i, p := range d.StartFiles {
		c.repoFile(fmt.Sprintf("start_files[%d]", i), p)
	}
	for i, p := range d.LikelyArea {
		c.repoFile(fmt.Sprintf("likely_area[%d]", i), p)
	}
	for i, ch := range d.Changes {
		for j, p := range ch.Files {
			c.repoFile(fmt.Sprintf("changes[%d].files[%d]", i, j), p)
		}
	}
	for i, p := range d.ReadonlyFiles {
		c.repoFile(fmt.Sprintf("readonly_files[%d]", i), p)
	}
}

// repoFile reports a path that is malformed or not a file in repo/.
func (c *checker) repoFile(field, p string) {
	if p == "" {
		return
	}
	if msg := badPath(p); msg != "" {
		c.at(field, msg, "write a path relative to repo/, like src/worker/consumer.js")
		return
	}
	if c.repo == nil {
		return // repo/ itself is missing, reported already
	}
	if _, ok := c.repo[p]; ok {
		return
	}
	fix := "fix the path or add the file to repo/"
	if near := closest(p, slices.Sorted(maps.Keys(c.repo))); near != "" {
		fix = fmt.Sprintf("did you mean %q?", near)
	}
	c.at(field, fmt.Sprintf("%q is not a file in repo/", p), fix)
}

// checkReadonly reports overlays that change read-only files: a learner could
// not make such a change, so neither the fix nor a decoy may.
func (c *checker) checkReadonly(readonly []string) {
	for _, name := range slices.Sorted(maps.Keys(c.overlays)) {
		for _, p := range readonly {
			if _, ok := c.overlays[name][p]; ok {
				c.inFile(path.Join(c.dir, name, p),
					fmt.Sprintf("%s/ changes %s, which readonly_files forbids the learner to change", name, p),
					"remove it from the overlay, or from readonly_files")
			}
		}
	}
}

// badPath says what is wrong with a slash-separated relative path, or "".
func badPath(p string) string {
	if !fs.ValidPath(p) || p == "." || strings.Contains(p, `\`) {
		return fmt.Sprintf("%q is not a clean relative path (no leading /, no . or .. parts, no trailing /, no backslashes)", p)
	}
	return ""
}
