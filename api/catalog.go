package api

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// handleListDossiers lists the dossier cards, with the learner's progress;
// with ?q= it finds dossiers by symptom instead, best match first, each card
// carrying the public phrase that matched. ?class= keeps the dossiers of one
// failure class.
func handleListDossiers(svc *workspace.Service) gin.HandlerFunc {
	return func(c *gin.Context) {
		var (
			cards []workspace.Card
			err   error
		)
		if q := c.Query("q"); strings.TrimSpace(q) != "" {
			cards, err = svc.Search(c, learnerOf(c), q)
		} else {
			cards, err = svc.Cards(c, learnerOf(c))
		}
		if err == nil {
			cards, err = workspace.OfClass(cards, c.Query("class"))
		}
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
