package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// joinRequest is the body of POST /api/cohorts/join/{code}.
type joinRequest struct {
	DisplayName string `json:"display_name"`
}

// handleInvitation shows the cohort a join link names, and whether the
// learner already joined it.
func handleInvitation(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		inv, err := svc.Invitation(c, learnerOf(c), c.Param("code"))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, inv)
	}
}

// handleJoin puts the learner in the cohort a join link names under the
// name they give, creating an anonymous learner (and its cookie) on a first
// visit, as many a minute per client address as newLearners allows. No
// password: the signed cookie is the learner, as everywhere else.
func handleJoin(svc *workspace.Service, key []byte, newLearners *learnerLimiter) gin.HandlerFunc {
	return func(c *gin.Context) {
		var req joinRequest
		if !decodeJSON(c, &req) {
			return
		}
		if err := svc.CheckJoin(c, c.Param("code"), req.DisplayName); err != nil {
			writeError(c, err)
			return
		}
		learner := learnerOf(c)
		if preview, err := svc.IsPreview(c, learner); err != nil || preview {
			if err == nil {
				err = workspace.Errorf(workspace.ECONFLICT, "This browser is in an instructor's preview; leave the preview before joining a cohort.")
			}
			writeError(c, err)
			return
		}
		if learner == "" {
			if err := newLearners.allow(clientKey(c.Request.RemoteAddr)); err != nil {
				writeError(c, err)
				return
			}
			var err error
			if learner, err = svc.NewLearner(c); err != nil {
				writeError(c, err)
				return
			}
			setSession(c, key, learner)
		}
		m, err := svc.Join(c, learner, c.Param("code"), req.DisplayName)
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, m)
	}
}
