package api

import (
	"net/http"
	"net/url"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// gitUser is the user name of the clone URL; git tokens are checked alone,
// so any name works.
const gitUser = "git"

// gitAccessView is the answer of the git access routes: how to clone a
// workspace with git.
type gitAccessView struct {
	// URL is the repository's URL, without credentials.
	URL string `json:"url"`
	// Token is the password for the repository.
	Token string `json:"token"`
	// CloneURL is URL with the token in it, for git clone or
	// git remote set-url origin.
	CloneURL string `json:"clone_url"`
	// CloneCommand clones the repository with the token in its URL, into a
	// directory named after the dossier.
	CloneCommand string `json:"clone_command"`
}

// newGitAccessView builds the URLs for a request that reached this server.
func newGitAccessView(c *gin.Context, a workspace.GitAccess) gitAccessView {
	scheme := "http"
	if c.Request.TLS != nil {
		scheme = "https"
	}
	plain := url.URL{Scheme: scheme, Host: c.Request.Host, Path: a.Path}
	withToken := plain
	withToken.User = url.UserPassword(gitUser, a.Token)
	return gitAccessView{URL: plain.String(), Token: a.Token, CloneURL: withToken.String(), CloneCommand: "git clone " + withToken.String() + " " + a.Dossier}
}

// handleGitAccess says how to clone the workspace with git.
func handleGitAccess(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		a, err := svc.GitAccess(c, learnerOf(c), c.Param("id"))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, newGitAccessView(c, a))
	}
}

// handleRotateGitToken replaces the workspace's git token.
func handleRotateGitToken(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		a, err := svc.RotateGitToken(c, learnerOf(c), c.Param("id"))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, newGitAccessView(c, a))
	}
}

// gitRoute adapts a git protocol handler, which takes the repository's name
// ("w_….git"), to a route.
func gitRoute(h func(http.ResponseWriter, *http.Request, string)) gin.HandlerFunc {
	return func(c *gin.Context) {
		h(c.Writer, c.Request, c.Param("repo"))
	}
}
