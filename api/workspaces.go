package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// createWorkspaceRequest is the body of POST /api/workspaces.
type createWorkspaceRequest struct {
	Dossier string `json:"dossier"`
}

// handleCreateWorkspace copies a dossier's repository into a new workspace,
// creating an anonymous learner (and its cookie) on a first visit, as many
// a minute per client address as newLearners allows.
func handleCreateWorkspace(svc *workspace.Service, key []byte, newLearners *learnerLimiter) gin.HandlerFunc {
	return func(c *gin.Context) {
		var req createWorkspaceRequest
		if !decodeJSON(c, &req) {
			return
		}
		if req.Dossier == "" {
			writeError(c, workspace.Errorf(workspace.EINVALID, "Name the dossier to work on: {\"dossier\": \"<slug>\"}."))
			return
		}
		if _, err := svc.Dossier(req.Dossier); err != nil {
			writeError(c, err)
			return
		}
		learner := learnerOf(c)
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
		v, err := svc.Create(c, learner, req.Dossier)
		if err != nil {
			writeError(c, err)
			return
		}
		c.Header("Location", "/api/workspaces/"+v.ID)
		c.JSON(http.StatusCreated, v)
	}
}

// handleListWorkspaces lists the learner's workspaces.
func handleListWorkspaces(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		list := []workspace.Summary{}
		if learner := learnerOf(c); learner != "" {
			var err error
			if list, err = svc.List(c, learner); err != nil {
				writeError(c, err)
				return
			}
		}
		c.JSON(http.StatusOK, gin.H{"workspaces": list})
	}
}

// handleGetWorkspace returns one workspace with files, progress, hints and runs.
func handleGetWorkspace(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		v, err := svc.View(c, learnerOf(c), c.Param("id"))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, v)
	}
}

// handleListHints lists the workspace's hints: titles, and texts once revealed.
func handleListHints(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		hints, err := svc.Hints(c, learnerOf(c), c.Param("id"))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, gin.H{"hints": hints})
	}
}

// handleRevealHint reveals the next hint.
func handleRevealHint(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		h, err := svc.RevealHint(c, learnerOf(c), c.Param("id"))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusCreated, h)
	}
}

// handleProgress returns the workspace's progress and timer.
func handleProgress(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		p, err := svc.Progress(c, learnerOf(c), c.Param("id"))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, p)
	}
}

// handleDiff returns the workspace's changes as a unified patch: as
// text/x-diff when the client asks for it, as JSON otherwise.
func handleDiff(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		d, err := svc.Diff(c, learnerOf(c), c.Param("id"))
		if err != nil {
			writeError(c, err)
			return
		}
		if c.NegotiateFormat(gin.MIMEJSON, "text/x-diff") == "text/x-diff" {
			c.Data(http.StatusOK, "text/x-diff; charset=utf-8", []byte(d.Patch))
			return
		}
		c.JSON(http.StatusOK, d)
	}
}
