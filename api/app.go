package api

import (
	"net/http"
	"strings"

	"github.com/gin-gonic/gin"
)

// serveAppOr answers a request no route matches: a page of the browser app
// when app is set and the request is a GET or HEAD outside /api and /git,
// and the problem+json 404 otherwise, so unknown API and git paths never
// get the app's page.
func serveAppOr(app http.Handler, fallback gin.HandlerFunc) gin.HandlerFunc {
	return func(c *gin.Context) {
		p := c.Request.URL.Path
		isRead := c.Request.Method == http.MethodGet || c.Request.Method == http.MethodHead
		if app != nil && isRead && !underPrefix(p, "/api") && !underPrefix(p, "/git") {
			c.Set(appRoute, true)
			app.ServeHTTP(c.Writer, c.Request)
			return
		}
		fallback(c)
	}
}

// underPrefix reports whether path is prefix or lies below it.
func underPrefix(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+"/")
}
