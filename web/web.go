// Package web serves racecase's browser workspace: the single-page app built
// from web/src by `make web` (npm ci, then esbuild) into web/dist, embedded
// into the binary. Hashed assets under /assets/ are cached for a year; every
// other path that is not an API path gets index.html, so that the app's own
// routes (/dossiers/{slug}) can be reloaded and shared.
package web

import (
	"bytes"
	"compress/gzip"
	"embed"
	"io/fs"
	"net/http"
	"path"
	"strings"
	"sync"
	"time"
)

// dist holds the built app; only dist/.gitkeep is committed, so a fresh
// clone compiles before the app is built.
//
//go:embed all:dist
var dist embed.FS

// Handler returns the handler that serves the app from the embedded build.
// Mount it for every path the API does not serve; it answers 404 itself for
// /api/… paths so that an unknown API route never gets the app's page.
func Handler() http.Handler {
	sub, err := fs.Sub(dist, "dist")
	if err != nil {
		panic("web: embedded dist is missing: " + err.Error())
	}
	return newHandler(sub)
}

// Cache policies.
const (
	cacheHashed = "public, max-age=31536000, immutable"
	cachePage   = "no-cache"
)

// contentSecurityPolicy allows only the app's own scripts and API; styles
// may be inline because the editor injects its own.
const contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; " +
	"img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; " +
	"form-action 'self'; frame-ancestors 'none'"

// handler serves files from a build.
type handler struct {
	files fs.FS
	index []byte // nil when the app is not built
	gz    sync.Map
}

// newHandler serves the build in files (the contents of dist/).
func newHandler(files fs.FS) *handler {
	h := &handler{files: files}
	if b, err := fs.ReadFile(files, "index.html"); err == nil {
		h.index = b
	}
	return h
}

// ServeHTTP serves an asset, the app's page, or the "not built" page.
func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := path.Clean("/" + r.URL.Path)
	if p == "/api" || strings.HasPrefix(p, "/api/") {
		http.NotFound(w, r)
		return
	}
	setSecurityHeaders(w.Header())
	if h.index == nil {
		notBuilt(w)
		return
	}
	name := strings.TrimPrefix(p, "/")
	if strings.HasPrefix(name, "assets/") {
		h.serveAsset(w, r, name)
		return
	}
	w.Header().Set("Cache-Control", cachePage)
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	http.ServeContent(w, r, "index.html", time.Time{}, bytes.NewReader(h.index))
}

// serveAsset serves a hashed asset, gzipped when the client accepts it.
func (h *handler) serveAsset(w http.ResponseWriter, r *http.Request, name string) {
	data, err := fs.ReadFile(h.files, name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	hdr := w.Header()
	hdr.Set("Cache-Control", cacheHashed)
	hdr.Add("Vary", "Accept-Encoding")
	if ct := contentType(name); ct != "" {
		hdr.Set("Content-Type", ct)
	}
	if len(data) > 1024 && strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
		hdr.Set("Content-Encoding", "gzip")
		data = h.gzipped(name, data)
	}
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(data))
}

// gzipped returns the compressed asset, compressing it once.
func (h *handler) gzipped(name string, data []byte) []byte {
	if v, ok := h.gz.Load(name); ok {
		return v.([]byte)
	}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(data)
	zw.Close()
	v, _ := h.gz.LoadOrStore(name, buf.Bytes())
	return v.([]byte)
}

// contentType names the media type of the app's asset kinds.
func contentType(name string) string {
	switch path.Ext(name) {
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".map", ".json":
		return "application/json"
	case ".svg":
		return "image/svg+xml"
	}
	return ""
}

// setSecurityHeaders sets the headers every page and asset carries.
func setSecurityHeaders(h http.Header) {
	h.Set("Content-Security-Policy", contentSecurityPolicy)
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "same-origin")
	h.Set("X-Frame-Options", "DENY")
}

// notBuiltPage is served when the binary was built without the app.
const notBuiltPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>racecase: workspace not built</title></head>
<body style="font:16px/1.5 system-ui,sans-serif;max-width:40em;margin:4em auto;padding:0 1em">
<h1>The browser workspace is not built</h1>
<p>This racecase binary was compiled before the web app was built. Run <code>make web</code>
(or <code>make run</code>, which builds everything), then start racecase again.</p>
<p>The API itself works: see <a href="/api/openapi.json">/api/openapi.json</a>.</p>
</body></html>
`

// notBuilt answers with the page saying how to build the app.
func notBuilt(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusServiceUnavailable)
	w.Write([]byte(notBuiltPage))
}
