package api

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
)

// serveAppOr answers a request no route matches: a page of the browser app
// when app is set and the request is a GET or HEAD outside /api, and the
// problem+json 404 otherwise, so unknown API paths never get the app's page.
func serveAppOr(app http.Handler, fallback gin.HandlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		p := c.Request.URL.Path
		isRead := c.Request.Method == http.MethodGet || c.Request.Method == http.MethodHead
		if app != nil && isRead && p != "/api" && !strings.HasPrefix(p, "/api/") {
			c.Set(appRoute, true)
			app.ServeHTTP(c.Writer, c.Request)
			return
		}
		fallback(c)
	}
}
