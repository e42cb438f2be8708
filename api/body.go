package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// maxBodyBytes caps a request body: a file of MaxFileBytes may need up to
// six times its size once escaped as JSON ("\u003c"), plus the other members.
const maxBodyBytes = 6*workspace.MaxFileBytes + 64<<10

// decodeJSON reads the request body as exactly one JSON object into dst,
// refusing other media types, oversized or non-UTF-8 bodies, unknown members
// and trailing data. It writes the problem itself and returns false when the
// body is refused.
func decodeJSON(c *gin.Context, dst any) bool {
	mt, _, err := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if err != nil || mt != "application/json" {
		writeProblem(c, newProblem(c, http.StatusUnsupportedMediaType, codeMediaType,
			"Send the request body as JSON, with Content-Type: application/json."))
		return false
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxBodyBytes))
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(c, &workspace.Error{Code: workspace.ETOOLARGE,
			Message: fmt.Sprintf("The request body is larger than %d bytes.", maxBodyBytes),
			Data:    map[string]any{"limit_bytes": maxBodyBytes}})
		return false
	case err != nil:
		writeError(c, workspace.Errorf(workspace.EINVALID, "The request body could not be read."))
		return false
	case !utf8.Valid(body):
		writeError(c, workspace.Errorf(workspace.EINVALID, "The request body is not valid UTF-8; only UTF-8 text can be saved."))
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		writeError(c, workspace.Errorf(workspace.EINVALID, "The request body is not the JSON this endpoint expects: %s.", describeJSONError(err)))
		return false
	}
	if _, err := dec.Token(); err != io.EOF {
		writeError(c, workspace.Errorf(workspace.EINVALID, "The request body holds more than one JSON value."))
		return false
	}
	return true
}

// describeJSONError says what is wrong with a body without naming Go types.
func describeJSONError(err error) string {
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return "it is empty"
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "it ends too early"
	case errors.As(err, &syntax):
		return fmt.Sprintf("invalid JSON at byte %d", syntax.Offset)
	case errors.As(err, &typ) && typ.Field != "":
		return fmt.Sprintf("member %q must be a %s, not a %s", typ.Field, jsonKind(typ.Type.Kind().String()), typ.Value)
	case errors.As(err, &typ):
		return fmt.Sprintf("it must be a JSON object, not a %s", typ.Value)
	}
	const unknown = "json: unknown field "
	if msg := err.Error(); len(msg) > len(unknown) && msg[:len(unknown)] == unknown {
		return "unknown member " + msg[len(unknown):]
	}
	return "it cannot be decoded"
}

// jsonKind names a Go kind as a JSON type.
func jsonKind(kind string) string {
	switch kind {
	case "string":
		return "string"
	case "int", "int64", "int32", "uint", "uint64", "float64":
		return "number"
	case "bool":
		return "boolean"
	case "slice", "array":
		return "array"
	}
	return "object"
}
