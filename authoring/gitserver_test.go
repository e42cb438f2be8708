package authoring

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/format/pktline"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
)

// serveGit serves the repository in dir over git's smart HTTP protocol
// (fetch only), with go-git's server, and returns its URL.
func serveGit(t *testing.T, dir string) string {
	t.Helper()
	repo, err := git.PlainOpen(dir)
	if err != nil {
		t.Fatal(err)
	}
	transportServer := server.NewServer(oneRepo{repo.Storer})
	session := func(w http.ResponseWriter) transport.UploadPackSession {
		s, err := transportServer.NewUploadPackSession(&transport.Endpoint{Path: "/"}, nil)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return nil
		}
		return s
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /repo.git/info/refs", func(w http.ResponseWriter, r *http.Request) {
		s := session(w)
		if s == nil {
			return
		}
		refs, err := s.AdvertisedReferencesContext(r.Context())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		refs.Prefix = [][]byte{[]byte("# service=git-upload-pack"), pktline.Flush}
		w.Header().Set("Content-Type", "application/x-git-upload-pack-advertisement")
		_ = refs.Encode(w)
	})
	mux.HandleFunc("POST /repo.git/git-upload-pack", func(w http.ResponseWriter, r *http.Request) {
		s := session(w)
		if s == nil {
			return
		}
		req := packp.NewUploadPackRequest()
		if err := req.Decode(r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		resp, err := s.UploadPack(r.Context(), req)
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		defer resp.Close()
		w.Header().Set("Content-Type", "application/x-git-upload-pack-result")
		_ = resp.Encode(w)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/repo.git"
}

// oneRepo is a server.Loader that serves one repository at every path.
type oneRepo struct{ s storer.Storer }

// Load returns the repository, whatever the endpoint.
func (o oneRepo) Load(*transport.Endpoint) (storer.Storer, error) { return o.s, nil }
