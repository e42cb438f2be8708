package gitserve

import (
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/racecase/racecase/workspace"
)

func TestPlanPush(t *testing.T) {
	a, b := plumbing.NewHash(strings.Repeat("a", 40)), plumbing.NewHash(strings.Repeat("b", 40))
	cmd := func(ref string, old, new plumbing.Hash) *packp.Command {
		return &packp.Command{Name: plumbing.ReferenceName(ref), Old: old, New: new}
	}
	for name, tc := range map[string]struct {
		cmds    []*packp.Command
		options []string
		kind    string // "" when refused
		says    string
	}{
		"main runs the checks":     {cmds: []*packp.Command{cmd("refs/heads/main", a, b)}, kind: workspace.KindCheck},
		"submit submits":           {cmds: []*packp.Command{cmd("refs/heads/submit", plumbing.ZeroHash, b)}, kind: workspace.KindSubmit},
		"-o submit submits":        {cmds: []*packp.Command{cmd("refs/heads/main", a, b)}, options: []string{"submit"}, kind: workspace.KindSubmit},
		"both to one commit":       {cmds: []*packp.Command{cmd("refs/heads/main", a, b), cmd("refs/heads/submit", plumbing.ZeroHash, b)}, kind: workspace.KindSubmit},
		"both to different ones":   {cmds: []*packp.Command{cmd("refs/heads/main", a, b), cmd("refs/heads/submit", plumbing.ZeroHash, a)}, says: "same commit"},
		"another branch":           {cmds: []*packp.Command{cmd("refs/heads/topic", plumbing.ZeroHash, b)}, says: "one branch, main"},
		"a tag":                    {cmds: []*packp.Command{cmd("refs/tags/v1", plumbing.ZeroHash, b)}, says: "one branch, main"},
		"deleting main":            {cmds: []*packp.Command{cmd("refs/heads/main", a, plumbing.ZeroHash)}, says: "cannot be deleted"},
		"more than two references": {cmds: []*packp.Command{cmd("refs/heads/main", a, b), cmd("refs/heads/submit", a, b), cmd("refs/heads/x", a, b)}, says: "at most 2 references"},
	} {
		p := planPush(tc.cmds, tc.options)
		if tc.kind != "" {
			if len(p.problems) > 0 || p.kind != tc.kind || p.update.New != b {
				t.Errorf("%s: plan %+v", name, p)
			}
			continue
		}
		if len(p.problems) == 0 || !strings.Contains(strings.Join(p.problems, " "), tc.says) {
			t.Errorf("%s: problems %q", name, p.problems)
		}
		for _, r := range p.refs {
			if r.reason == "" {
				t.Errorf("%s: %s would be updated", name, r.name)
			}
		}
	}
	if p := planPush([]*packp.Command{cmd("refs/heads/main", a, b)}, []string{"frob"}); len(p.notes) != 1 || !strings.Contains(p.notes[0], `"frob"`) {
		t.Errorf("an unknown option: notes %q", p.notes)
	}
}
