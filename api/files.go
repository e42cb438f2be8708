package api

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// saveFileRequest is the body of PUT /api/workspaces/{id}/files/{path}.
type saveFileRequest struct {
	// Content is the file's new content.
	Content *string `json:"content"`
	// BaseVersion is the version the edit started from.
	BaseVersion *int64 `json:"base_version"`
}

// filePath returns the path a catch-all route parameter names, without the
// one leading slash gin keeps.
func filePath(c *gin.Context) string {
	return strings.TrimPrefix(c.Param("path"), "/")
}

// handleReadFile returns one file with its content and version.
func handleReadFile(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		f, err := svc.ReadFile(c, learnerOf(c), c.Param("id"), filePath(c))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, f)
	}
}

// handleSaveFile saves a file if it is still at the version the edit
// started from; otherwise it answers 409 with the current file.
func handleSaveFile(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var req saveFileRequest
		if !decodeJSON(c, &req) {
			return
		}
		if req.Content == nil || req.BaseVersion == nil {
			writeError(c, workspace.Errorf(workspace.EINVALID,
				"A save needs the new content and the version it edits: {\"content\": \"…\", \"base_version\": 3}."))
			return
		}
		f, err := svc.SaveFile(c, learnerOf(c), c.Param("id"), filePath(c), *req.Content, *req.BaseVersion)
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, f)
	}
}

// handleResetFile puts one file back to the dossier's original.
func handleResetFile(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		f, err := svc.ResetFile(c, learnerOf(c), c.Param("id"), filePath(c))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, f)
	}
}

// handleResetWorkspace puts every file back to the dossier's original.
func handleResetWorkspace(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		files, err := svc.ResetAll(c, learnerOf(c), c.Param("id"))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, gin.H{"files": files})
	}
}
