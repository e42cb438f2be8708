package workspace

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"errors"
	"strconv"

	"github.com/racecase/racecase/store/sqlite/db"
)

// gitTokenPrefix starts every git token, so that one is recognisable in a
// config file or a leak report.
const gitTokenPrefix = "rcg_"

// GitAccess is what a learner needs to clone a workspace with git.
type GitAccess struct {
	// Dossier is the slug of the workspace's dossier, a good name for the clone.
	Dossier string `json:"dossier"`
	// Path is the repository's path on the server, e.g. "/git/w_ABC.git".
	Path string `json:"path"`
	// Token is the password of HTTP basic authentication for this
	// workspace's repository, and for no other.
	Token string `json:"token"`
}

// GitAccess returns how learner clones one of their workspaces.
func (s *Service) GitAccess(ctx context.Context, learner, wsID string) (GitAccess, error) {
	ws, _, err := s.workspace(ctx, learner, wsID)
	if err != nil {
		return GitAccess{}, err
	}
	return s.gitAccess(ws.ID, ws.Dossier, ws.GitTokenGeneration), nil
}

// RotateGitToken replaces a workspace's git token; the old one stops working
// at once.
func (s *Service) RotateGitToken(ctx context.Context, learner, wsID string) (GitAccess, error) {
	ws, _, err := s.workspace(ctx, learner, wsID)
	if err != nil {
		return GitAccess{}, err
	}
	generation, err := s.store.RotateGitToken(ctx, db.RotateGitTokenParams{ID: wsID, LearnerID: learner})
	if errors.Is(err, sql.ErrNoRows) {
		return GitAccess{}, Errorf(ENOTFOUND, "There is no workspace %q.", wsID)
	}
	if err != nil {
		return GitAccess{}, wrap(err, "rotate git token")
	}
	return s.gitAccess(ws.ID, ws.Dossier, generation), nil
}

// gitAccess builds the access to a workspace at a token generation.
func (s *Service) gitAccess(wsID, slug string, generation int64) GitAccess {
	return GitAccess{Dossier: slug, Path: "/git/" + wsID + ".git", Token: s.gitToken(wsID, generation)}
}

// gitToken derives a workspace's token at a generation from the server's
// key. Nothing about it is stored: rotating bumps the generation.
func (s *Service) gitToken(wsID string, generation int64) string {
	m := hmac.New(sha256.New, s.gitKey)
	m.Write([]byte("racecase git token\x00" + wsID + "\x00" + strconv.FormatInt(generation, 10)))
	return gitTokenPrefix + base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:24])
}
