package api

import "github.com/gin-gonic/gin"

// apiContentSecurityPolicy forbids everything: API responses are data, never
// pages, scripts or frames.
const apiContentSecurityPolicy = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'"

// withSecurityHeaders gives every response the headers that keep browsers
// from sniffing, caching, framing or running it. The browser app's pages and
// assets replace the policy and caching with their own.
func withSecurityHeaders() gin.HandlerFunc {
	return func(c *gin.Context) {
		h := c.Writer.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Security-Policy", apiContentSecurityPolicy)
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		c.Next()
	}
}
