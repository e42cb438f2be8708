package gitserve

import (
	"bytes"
	"fmt"
	"io"
	"net/http"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
	"github.com/go-git/go-git/v5/plumbing/revlist"
	"github.com/racecase/racecase/workspace"
)

// maxFetchRequestBytes bounds a fetch's request: its wants and haves.
const maxFetchRequestBytes = 1 << 20

// deltaWindow is how many objects the pack encoder compares for deltas.
const deltaWindow = 10

// fetchRequest is a decoded upload-pack request.
type fetchRequest struct {
	wants []plumbing.Hash
	haves []plumbing.Hash
	caps  *capability.List
	done  bool
}

// parseFetch decodes an upload-pack request: want lines (the first with the
// client's capabilities), a flush, have lines in rounds, and "done" once
// the client has no more to say.
func parseFetch(r io.Reader) (fetchRequest, error) {
	req := fetchRequest{caps: capability.NewList()}
	sc := pktline.NewScanner(r)
	for sc.Scan() {
		line := bytes.TrimSuffix(sc.Bytes(), []byte("\n"))
		word, rest, _ := bytes.Cut(line, []byte(" "))
		switch string(word) {
		case "":
			// a flush between sections
		case "want":
			h, caps, _ := bytes.Cut(rest, []byte(" "))
			if !plumbing.IsHash(string(h)) {
				return req, fmt.Errorf("malformed want %q", line)
			}
			if len(req.wants) == 0 && len(caps) > 0 {
				if err := req.caps.Decode(caps); err != nil {
					return req, fmt.Errorf("malformed capabilities: %w", err)
				}
			}
			req.wants = append(req.wants, plumbing.NewHash(string(h)))
		case "have":
			if !plumbing.IsHash(string(rest)) {
				return req, fmt.Errorf("malformed have %q", line)
			}
			req.haves = append(req.haves, plumbing.NewHash(string(rest)))
		case "done":
			req.done = true
		default:
			return req, fmt.Errorf("unsupported request line %q", line)
		}
	}
	return req, sc.Err()
}

// UploadPack answers POST …/git-upload-pack, a clone's or fetch's request.
// Negotiation is the simplest git allows: racecase acknowledges nothing
// until the client says "done", so the client sends every commit it has, and
// the pack then holds what the wanted commits reach minus what the common
// ones reach.
func (s *Server) UploadPack(w http.ResponseWriter, r *http.Request, name string) {
	repo, body := s.openPost(w, r, name)
	if repo == nil {
		return
	}
	req, err := parseFetch(io.LimitReader(body, maxFetchRequestBytes))
	if err != nil {
		fail(w, http.StatusBadRequest, "The fetch request is malformed: "+err.Error()+".")
		return
	}
	objs, err := s.svc.LoadObjects(r.Context(), repo)
	if err != nil {
		s.refuse(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/x-git-upload-pack-result")
	w.Header().Set("Cache-Control", "no-cache")
	enc := pktline.NewEncoder(w)
	for _, want := range req.wants {
		if !objs.Stored(want) {
			_ = enc.Encodef("ERR upload-pack: not our ref %s\n", want)
			return
		}
	}
	if len(req.wants) == 0 {
		return
	}
	if !req.done {
		_ = enc.Encodef("NAK\n")
		return
	}
	if err := sendPack(w, objs, req); err != nil {
		s.log.Warn("git pack not sent", "repo", repo.WorkspaceID, "error", err.Error())
	}
}

// sendPack acknowledges the first common commit (or none) and sends the pack.
func sendPack(w io.Writer, objs *workspace.Objects, req fetchRequest) error {
	var common []plumbing.Hash
	for _, h := range req.haves {
		if objs.Stored(h) {
			common = append(common, h)
		}
	}
	enc := pktline.NewEncoder(w)
	if len(common) > 0 {
		if err := enc.Encodef("ACK %s\n", common[0]); err != nil {
			return err
		}
	} else if err := enc.Encodef("NAK\n"); err != nil {
		return err
	}
	known, err := revlist.Objects(objs, common, nil)
	if err != nil {
		return err
	}
	hashes, err := revlist.Objects(objs, req.wants, known)
	if err != nil {
		return err
	}
	_, err = packfile.NewEncoder(w, objs, !req.caps.Supports(capability.OFSDelta)).Encode(hashes, deltaWindow)
	return err
}
