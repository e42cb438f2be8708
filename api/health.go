package api

import (
	"context"
	"net/http"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// readyTimeout bounds the readiness checks.
const readyTimeout = 3 * time.Second

// handleHealthz answers while the process serves requests.
func handleHealthz() gin.HandlerFunc {
	return func(c *gin.Context) {
		c.JSON(http.StatusOK, gin.H{"status": "ok"})
	}
}

// handleReadyz checks the database and the runner. It answers 200 when both
// answer and a 503 problem naming what does not otherwise.
func handleReadyz(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		ctx, cancel := context.WithTimeout(c, readyTimeout)
		defer cancel()
		dbErr, runnerErr := svc.Ready(ctx)
		checks := gin.H{"database": "ok", "runner": "ok"}
		if dbErr != nil {
			checks["database"] = "unavailable"
			logger(c).Warn("readiness: database", "error", dbErr.Error())
		}
		if runnerErr != nil {
			checks["runner"] = workspace.ErrorMessage(runnerErr)
			if workspace.ErrorCode(runnerErr) == workspace.EINTERNAL {
				checks["runner"] = "unavailable: the Docker engine does not answer"
			}
			logger(c).Warn("readiness: runner", "error", runnerErr.Error())
		}
		if dbErr == nil && runnerErr == nil {
			c.JSON(http.StatusOK, gin.H{"status": "ready", "checks": checks})
			return
		}
		p := newProblem(c, http.StatusServiceUnavailable, workspace.EUNAVAILABLE, "racecase is not ready: see checks.")
		p.Extra = map[string]any{"checks": checks}
		writeProblem(c, p)
	}
}
