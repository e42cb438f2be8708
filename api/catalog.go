package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// handleListDossiers lists the dossier cards, with the learner's progress.
func handleListDossiers(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		cards, err := svc.Cards(c, learnerOf(c))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, gin.H{"dossiers": cards})
	}
}

// handleGetDossier returns one dossier's evidence, without its secrets.
func handleGetDossier(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		d, err := svc.Dossier(c.Param("slug"))
		if err != nil {
			writeError(c, err)
			return
		}
		c.JSON(http.StatusOK, d)
	}
}
