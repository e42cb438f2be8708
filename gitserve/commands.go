package gitserve

import (
	"fmt"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/racecase/racecase/workspace"
)

// submitRef is the branch a push submits through. It is never stored: main
// moves to the pushed commit, and the hidden tests run on it.
const submitRef = plumbing.ReferenceName("refs/heads/submit")

// submitOption is the push option (`git push -o submit`) that submits.
const submitOption = "submit"

// refStatus is the outcome of one reference a push updates.
type refStatus struct {
	name   plumbing.ReferenceName
	reason string // empty when the reference was updated
}

// pushPlan is what a push asks for, decided from its commands and options
// before its pack is read.
type pushPlan struct {
	refs     []refStatus
	update   workspace.PushRequest
	kind     string   // workspace.KindCheck or workspace.KindSubmit
	problems []string // why the push is refused, a sentence each; empty when it is not
	notes    []string // what the learner should know anyway
}

// planPush reads a push's commands and options. A push updates main (the
// checks run), submit (main moves too, and the hidden tests run), or both
// to the same commit; anything else refuses the whole push.
func planPush(cmds []*packp.Command, options []string) pushPlan {
	p := pushPlan{kind: workspace.KindCheck}
	for _, c := range cmds {
		p.refs = append(p.refs, refStatus{name: c.Name})
	}
	if len(cmds) > MaxRefUpdates {
		p.refuse(-1, "too many references", fmt.Sprintf("A push may update at most %d references, main and submit; this one updates %d.", MaxRefUpdates, len(cmds)))
		return p
	}
	for i, c := range cmds {
		switch {
		case c.Name != mainRef && c.Name != submitRef:
			p.refuse(i, "only main and submit can be pushed", fmt.Sprintf("%s: a workspace has one branch, main. Push to main to run the checks, or to submit (git push origin HEAD:submit) to submit your fix.", c.Name))
		case c.Action() == packp.Delete:
			p.refuse(i, "deleting is not allowed", fmt.Sprintf("%s cannot be deleted.", c.Name))
		case !p.update.New.IsZero() && c.New != p.update.New:
			p.refuse(i, "main and submit differ", "A push to main and submit at once must push the same commit to both.")
		default:
			p.update.New = c.New
			if c.Name == mainRef {
				p.update.Old = c.Old
			} else {
				p.kind = workspace.KindSubmit
			}
		}
	}
	for _, o := range options {
		if o == submitOption {
			p.kind = workspace.KindSubmit
			continue
		}
		p.notes = append(p.notes, fmt.Sprintf("racecase: the push option %q means nothing here and was ignored; racecase knows -o %s.", o, submitOption))
	}
	if len(p.problems) > 0 {
		p.refuseAll("not updated: the push was refused")
	}
	return p
}

// refuse refuses the reference at i (every reference for -1) for reason,
// and with it the whole push.
func (p *pushPlan) refuse(i int, reason, problem string) {
	p.problems = append(p.problems, problem)
	for j := range p.refs {
		if j == i || i < 0 {
			p.refs[j].reason = reason
		}
	}
}

// refuseAll marks every reference not yet refused with reason.
func (p *pushPlan) refuseAll(reason string) {
	for j := range p.refs {
		if p.refs[j].reason == "" {
			p.refs[j].reason = reason
		}
	}
}
