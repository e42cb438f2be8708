package api

import (
	"net/http"

	"github.com/gin-gonic/gin"
)

// codeCrossOrigin is the code of an unsafe request a browser sent from
// another origin.
const codeCrossOrigin = "cross_origin"

// refuseCrossOrigin refuses every request with an unsafe method (POST, PUT,
// DELETE, …) that a browser sent from another origin, another port or
// sibling subdomain of the same site included: net/http's
// CrossOriginProtection reads Sec-Fetch-Site, or else compares Origin with
// Host. Requests from non-browser clients, which send neither, pass.
func refuseCrossOrigin() gin.HandlerFunc {
	protection := http.NewCrossOriginProtection()
	return func(c *gin.Context) {
		if err := protection.Check(c.Request); err != nil {
			writeProblem(c, newProblem(c, http.StatusForbidden, codeCrossOrigin,
				"This request came from a page of another origin; racecase accepts changes only from its own pages."))
			return
		}
		c.Next()
	}
}
