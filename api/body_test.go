package api

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/gin-gonic/gin"
)

func TestDecodeJSONRefusals(t *testing.T) {
	type target struct {
		Content *string `json:"content"`
		Version *int64  `json:"base_version"`
	}
	for _, c := range []struct {
		name, ctype, body string
		status            int
		detail            string
	}{
		{"ok", "application/json; charset=utf-8", `{"content":"x","base_version":1}`, 0, ""},
		{"media type", "text/plain", `{}`, 415, "application/json"},
		{"no media type", "", `{}`, 415, "application/json"},
		{"not UTF-8", "application/json", "{\"content\":\"\xff\"}", 400, "UTF-8"},
		{"lone surrogate", "application/json", `{"content":"\ud800","base_version":1}`, 400, "surrogate"},
		{"syntax", "application/json", `{"content":`, 400, "ends too early"},
		{"garbage", "application/json", `{"content" 1}`, 400, "invalid JSON at byte"},
		{"empty", "application/json", ``, 400, "empty"},
		{"unknown member", "application/json", `{"contents":"x"}`, 400, `unknown member "contents"`},
		{"wrong type", "application/json", `{"base_version":"3"}`, 400, `member "base_version" must be an integer, not a string`},
		{"fraction", "application/json", `{"base_version":1.5}`, 400, `member "base_version" must be an integer, not 1.5`},
		{"array for a string", "application/json", `{"content":[]}`, 400, `member "content" must be a string, not an array`},
		{"not an object", "application/json", `[1]`, 400, "must be a JSON object, not an array"},
		{"two values", "application/json", `{} {}`, 400, "more than one JSON value"},
		{"too large", "application/json", `{"content":"` + strings.Repeat("x", maxBodyBytes) + `"}`, 413, "larger than"},
	} {
		w := httptest.NewRecorder()
		ctx, _ := gin.CreateTestContext(w)
		ctx.Request = httptest.NewRequest(http.MethodPut, "/x", strings.NewReader(c.body))
		if c.ctype != "" {
			ctx.Request.Header.Set("Content-Type", c.ctype)
		}
		var dst target
		ok := decodeJSON(ctx, &dst)
		if c.status == 0 {
			if !ok || *dst.Content != "x" || *dst.Version != 1 {
				t.Errorf("%s: refused: %s", c.name, w.Body.String())
			}
			continue
		}
		var body map[string]any
		_ = json.Unmarshal(w.Body.Bytes(), &body)
		detail, _ := body["detail"].(string)
		if ok || w.Code != c.status || !strings.Contains(detail, c.detail) {
			t.Errorf("%s: ok %v, status %d, detail %q", c.name, ok, w.Code, detail)
		}
		if strings.Contains(detail, "int64") || strings.Contains(detail, "api.target") {
			t.Errorf("%s: detail names Go types: %q", c.name, detail)
		}
	}
}
