package gitserve

import (
	"net/http"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp/capability"
)

// The services of the smart HTTP protocol.
const (
	serviceUpload  = "git-upload-pack"
	serviceReceive = "git-receive-pack"
)

// mainRef is the repository's only branch.
const mainRef = plumbing.ReferenceName("refs/heads/main")

// agent names racecase to git clients.
const agent = "racecase"

// InfoRefs answers GET …/info/refs?service=…: the references and
// capabilities of the repository for a fetch or a push.
func (s *Server) InfoRefs(w http.ResponseWriter, r *http.Request, name string) {
	service := r.URL.Query().Get("service")
	if service != serviceUpload && service != serviceReceive {
		fail(w, http.StatusForbidden, "racecase speaks git's smart HTTP protocol only; use git 1.6.6 or newer.")
		return
	}
	repo := s.open(w, r, name)
	if repo == nil {
		return
	}
	adv := packp.NewAdvRefs()
	adv.Prefix = [][]byte{[]byte("# service=" + service), pktline.Flush}
	adv.References[mainRef.String()] = repo.Head
	caps := adv.Capabilities
	_ = caps.Set(capability.Agent, agent)
	_ = caps.Set(capability.OFSDelta)
	if service == serviceUpload {
		head := repo.Head
		adv.Head = &head
		_ = caps.Set(capability.SymRef, "HEAD:"+mainRef.String())
	} else {
		_ = caps.Set(capability.ReportStatus)
		_ = caps.Set(capability.Sideband64k)
		_ = caps.Set(capability.PushOptions)
	}
	w.Header().Set("Content-Type", "application/x-"+service+"-advertisement")
	w.Header().Set("Cache-Control", "no-cache")
	if err := adv.Encode(w); err != nil {
		s.log.Warn("git advertisement not sent", "error", err.Error())
	}
}
