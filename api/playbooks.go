package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// markdownType is the media type of an exported playbook.
const markdownType = "text/markdown"

// handleListPlaybooks returns the learner's shelf: the playbooks of every
// dossier they solved, as JSON or, when the client asks for text/markdown,
// as one Markdown document to save.
func handleListPlaybooks(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		shelf, err := svc.Playbooks(c, learnerOf(c))
		if err != nil {
			writeError(c, err)
			return
		}
		if wantsMarkdown(c) {
			sendMarkdown(c, "racecase-playbooks.md", workspace.ShelfMarkdown(shelf))
			return
		}
		c.JSON(http.StatusOK, gin.H{"playbooks": shelf})
	}
}

// handleGetPlaybook returns one solved dossier's playbook, as JSON or Markdown.
func handleGetPlaybook(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		pb, err := svc.Playbook(c, learnerOf(c), c.Param("slug"))
		if err != nil {
			writeError(c, err)
			return
		}
		if wantsMarkdown(c) {
			sendMarkdown(c, pb.Slug+"-playbook.md", pb.Markdown())
			return
		}
		c.JSON(http.StatusOK, pb)
	}
}

// wantsMarkdown reports whether the client prefers Markdown to JSON.
func wantsMarkdown(c *gin.Context) bool {
	return c.NegotiateFormat(gin.MIMEJSON, markdownType) == markdownType
}

// sendMarkdown answers with a Markdown document to be saved as file.
func sendMarkdown(c *gin.Context, file, doc string) {
	c.Header("Content-Disposition", `attachment; filename="`+file+`"`)
	c.Data(http.StatusOK, markdownType+"; charset=utf-8", []byte(doc))
}
