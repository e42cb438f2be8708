package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// homeCookie keeps the browser's own learner while it previews a dossier as
// a throwaway learner; leaving the preview brings it back.
const homeCookie = "racecase_home"

// previewRequest is the body of POST /api/instructor/previews.
type previewRequest struct {
	Dossier string `json:"dossier"`
}

// handleStartPreview makes the browser a throwaway preview learner with a
// fresh workspace for a dossier. The browser's own learner is kept aside
// (and comes back on leaving); a preview learner it was already is deleted,
// so a second preview is a reset.
func handleStartPreview(svc *workspace.Service, key []byte) gin.HandlerFunc {
	return func(c *gin.Context) {
		var req previewRequest
		if !decodeJSON(c, &req) {
			return
		}
		current := learnerOf(c)
		preview, err := svc.IsPreview(c, current)
		if err != nil {
			writeError(c, err)
			return
		}
		old := ""
		if preview {
			old = current
		}
		learner, v, err := svc.StartPreview(c, old, req.Dossier)
		if err != nil {
			writeError(c, err)
			return
		}
		if current != "" && !preview {
			setCookie(c, homeCookie, signSession(key, current))
		}
		setSession(c, key, learner)
		c.JSON(http.StatusCreated, gin.H{"path": "/dossiers/" + v.Dossier, "workspace": v})
	}
}

// handleLeavePreview deletes the browser's preview learner and gives it
// back its own learner (or none, if it had none).
func handleLeavePreview(svc *workspace.Service, key []byte) gin.HandlerFunc {
	return func(c *gin.Context) {
		learner := learnerOf(c)
		preview, err := svc.IsPreview(c, learner)
		if err == nil && !preview {
			err = workspace.Errorf(workspace.ECONFLICT, "This browser is not in a preview.")
		}
		if err != nil {
			writeError(c, err)
			return
		}
		if err := svc.EndPreview(c, learner); err != nil {
			writeError(c, err)
			return
		}
		home := ""
		if v, err := c.Cookie(homeCookie); err == nil {
			home, _ = verifySession(key, v)
		}
		if home != "" {
			setSession(c, key, home)
		} else {
			setCookie(c, SessionCookie, "")
		}
		setCookie(c, homeCookie, "")
		c.Status(http.StatusNoContent)
	}
}

// setCookie sets (or, with an empty value, deletes) a session-like cookie.
func setCookie(c *gin.Context, name, value string) {
	maxAge := sessionMaxAge
	if value == "" {
		maxAge = -1
	}
	http.SetCookie(c.Writer, &http.Cookie{Name: name, Value: value, Path: "/", MaxAge: maxAge, HttpOnly: true,
		Secure: c.Request.TLS != nil, SameSite: http.SameSiteLaxMode})
}
