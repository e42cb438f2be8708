package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// startRunRequest is the body of POST /api/workspaces/{id}/runs.
type startRunRequest struct {
	// Kind is "check" (the visible test) or "submit" (the hidden tests).
	Kind string `json:"kind"`
}

// handleStartRun queues a check or a submission of the workspace as it is
// now and answers 202 with the run.
func handleStartRun(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var req startRunRequest
		if !decodeJSON(c, &req) {
			return
		}
		run, err := svc.StartRun(c, learnerOf(c), c.Param("id"), req.Kind)
		if err != nil {
			writeError(c, err)
			return
		}
		c.Header("Location", "/api/runs/"+run.ID)
		c.JSON(http.StatusAccepted, run)
	}
}

// handleGetRun returns a run: status, verdict and per-test results.
func handleGetRun(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		run, err := svc.Run(c, learnerOf(c), c.Param("id"))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, run)
	}
}
