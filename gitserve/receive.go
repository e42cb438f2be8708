package gitserve

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/racecase/racecase/workspace"
)

// ReceivePack answers POST …/git-receive-pack, a push. The push is planned
// from its commands, its pack is read within the limits and checked, and
// the workspace service applies it like a save; then the run it asks for
// starts, and the answer follows it to its verdict. A refused push changes
// nothing and says why, naming each file.
func (s *Server) ReceivePack(w http.ResponseWriter, r *http.Request, name string) {
	repo, body := s.openPost(w, r, name)
	if repo == nil {
		return
	}
	in := bufio.NewReader(body)
	if probe, _ := in.Peek(4); string(probe) == "0000" {
		// git probes with an empty request before sending a large push.
		w.WriteHeader(http.StatusOK)
		return
	}
	req := packp.NewReferenceUpdateRequest()
	if err := req.Decode(in); err != nil {
		fail(w, http.StatusBadRequest, "The push request is malformed: its commands cannot be read.")
		return
	}
	options, err := readOptions(req)
	if err != nil {
		fail(w, http.StatusBadRequest, "The push request is malformed: its options cannot be read.")
		return
	}
	plan := planPush(req.Commands, options)
	pack, size, packErr := readPack(req.Packfile)
	out := newReply(w, req.Capabilities)
	for _, note := range plan.notes {
		out.say(note)
	}
	switch {
	case errors.Is(packErr, errPackTooLarge):
		out.say(fmt.Sprintf("racecase: the push carries a pack of %s; a push may carry at most %s (a workspace holds at most %s of files). Nothing was changed.",
			workspace.FormatSize(size), workspace.FormatSize(MaxPackBytes), workspace.FormatSize(workspace.MaxWorkspaceBytes)))
		out.say("racecase: take the large files out of your commits (git rm --cached FILE, then git commit --amend) and push again.")
		plan.refuseAll("pack too large")
		out.finish("pack too large", plan.refs)
		return
	case packErr != nil:
		s.log.Info("push abandoned while sending its pack", "repo", repo.WorkspaceID, "error", packErr.Error())
		return
	case len(plan.problems) > 0:
		for _, p := range plan.problems {
			out.say("racecase: " + p)
		}
		out.finish("ok", plan.refs)
		return
	}
	s.apply(r, out, repo, plan, pack)
}

// apply unpacks the pack, has the service apply the push and, once it is
// applied, runs what the push asked for to its verdict.
func (s *Server) apply(r *http.Request, out *reply, repo *workspace.Repo, plan pushPlan, pack []byte) {
	ctx := r.Context()
	objs, err := s.svc.LoadObjects(ctx, repo)
	if err != nil {
		s.log.Error("git objects not loaded", "repo", repo.WorkspaceID, "error", err.Error())
		out.say("racecase: " + workspace.ErrorMessage(err))
		plan.refuseAll("failed on the server")
		out.finish("ok", plan.refs)
		return
	}
	if err := unpack(objs, pack); err != nil {
		why, status := "The pack is malformed: it is truncated, corrupt or not a git pack.", "malformed pack"
		var limit *limitError
		if errors.As(err, &limit) {
			why, status = limit.msg, "pack over the limits"
		}
		out.say("racecase: " + why + " Nothing was changed.")
		plan.refuseAll("unpacker error")
		out.finish(status, plan.refs)
		return
	}
	res, err := s.svc.Push(ctx, repo, objs, plan.update)
	if err != nil {
		if workspace.ErrorCode(err) == workspace.EINTERNAL {
			s.log.Error("push failed", "repo", repo.WorkspaceID, "error", err.Error())
		}
		for _, line := range strings.Split(workspace.ErrorMessage(err), "\n") {
			out.say("racecase: " + line)
		}
		out.say("racecase: the push was refused; nothing was changed.")
		plan.refuseAll(refusal(err))
		out.finish("ok", plan.refs)
		return
	}
	out.say(summary(res))
	s.runToVerdict(ctx, out, repo, plan.kind)
	out.finish("ok", plan.refs)
}

// readOptions reads the push options that follow the commands when the
// client sent any.
func readOptions(req *packp.ReferenceUpdateRequest) ([]string, error) {
	if !req.Capabilities.Supports(capability.PushOptions) {
		return nil, nil
	}
	var options []string
	sc := pktline.NewScanner(req.Packfile)
	for sc.Scan() {
		line := sc.Bytes()
		if len(line) == 0 {
			return options, nil
		}
		options = append(options, strings.TrimSuffix(string(line), "\n"))
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, io.ErrUnexpectedEOF
}

// refusal is the short reason git prints beside a refused reference.
func refusal(err error) string {
	switch workspace.ErrorCode(err) {
	case workspace.ECONFLICT:
		return "main has moved on: git pull, then push"
	case workspace.EFORBIDDEN:
		return "a read-only file changed"
	case workspace.ETOOLARGE:
		return "too large"
	case workspace.EINVALID:
		return "refused, see above"
	case workspace.EUNAVAILABLE:
		return "unavailable, see above"
	}
	return "failed on the server"
}

// summary says what an accepted push changed.
func summary(res workspace.PushResult) string {
	head := res.Head.String()[:7]
	if len(res.Changed) == 0 {
		return "racecase: main is at " + head + "; no file changed."
	}
	files := make([]string, 0, len(res.Changed))
	for _, f := range res.Changed {
		files = append(files, fmt.Sprintf("%s (version %d)", f.Path, f.Version))
	}
	noun := "files"
	if len(files) == 1 {
		noun = "file"
	}
	return fmt.Sprintf("racecase: main is at %s; %d %s changed: %s.", head, len(files), noun, strings.Join(files, ", "))
}
