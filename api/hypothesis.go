package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// pickRequest is the body of PUT /api/workspaces/{id}/hypothesis.
type pickRequest struct {
	Hypothesis string `json:"hypothesis"`
}

// handlePickHypothesis records the hypothesis the learner marks.
func handlePickHypothesis(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var req pickRequest
		if !decodeJSON(c, &req) {
			return
		}
		if err := svc.PickHypothesis(c, learnerOf(c), c.Param("id"), req.Hypothesis); err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, req)
	}
}
