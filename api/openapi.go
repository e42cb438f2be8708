package api

import (
	_ "embed"
	"net/http"

	"github.com/gin-gonic/gin"
)

// openAPI is the OpenAPI 3.1 document of every route in routes.go.
//
//go:embed openapi.json
var openAPI []byte

// OpenAPI returns the OpenAPI 3.1 document of the API, as /api/openapi.json
// serves it.
func OpenAPI() []byte { return openAPI }

// handleOpenAPI serves the OpenAPI document.
func handleOpenAPI() gin.HandlerFunc {
	return func(c *gin.Context) {
		c.Data(http.StatusOK, "application/json", openAPI)
	}
}
