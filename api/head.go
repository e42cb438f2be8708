package api

import (
	"context"
	"net/http"
)

// headKey marks, in a request's context, a HEAD request routed as a GET.
type headKey struct{}

// headAsGet answers HEAD wherever GET is answered: it routes a HEAD request
// as a GET, and net/http, which still sees the original HEAD request,
// sends the headers and drops the body.
func headAsGet(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodHead {
			next.ServeHTTP(w, r)
			return
		}
		get := r.Clone(context.WithValue(r.Context(), headKey{}, true))
		get.Method = http.MethodGet
		next.ServeHTTP(w, get)
	})
}

// isHead reports whether r is a HEAD request routed as a GET.
func isHead(r *http.Request) bool {
	head, _ := r.Context().Value(headKey{}).(bool)
	return head
}
