package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/gin-gonic/gin"
	"github.com/racecase/racecase/workspace"
)

// maxBodyBytes caps a request body: a file of MaxFileBytes may need up to
// six times its size once escaped as JSON ("\u003c"), plus the other members.
const maxBodyBytes = 6*workspace.MaxFileBytes + 64<<10

// decodeJSON reads the request body as exactly one JSON object into dst,
// refusing other media types, oversized, slow or non-UTF-8 bodies, lone
// surrogate escapes, unknown members and trailing data. It writes the problem itself and returns false when the
// body is refused.
func decodeJSON(c *gin.Context, dst any) bool {
	mt, _, err := mime.ParseMediaType(c.GetHeader("Content-Type"))
	if err != nil || mt != "application/json" {
		writeProblem(c, newProblem(c, http.StatusUnsupportedMediaType, codeMediaType,
			"Send the request body as JSON, with Content-Type: application/json."))
		return false
	}
	body, err := io.ReadAll(http.MaxBytesReader(c.Writer, c.Request.Body, maxBodyBytes))
	switch {
	case err != nil:
		writeBodyError(c, err)
		return false
	case !utf8.Valid(body):
		writeError(c, workspace.Errorf(workspace.EINVALID, "The request body is not valid UTF-8; only UTF-8 text can be saved."))
		return false
	case loneSurrogate(body):
		writeError(c, workspace.Errorf(workspace.EINVALID,
			"The request body escapes half of a UTF-16 surrogate pair (e.g. \\ud800 alone); only valid Unicode text can be saved."))
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
		return fmt.Sprintf("member %q must be %s, not %s", typ.Field, jsonKind(typ.Type.Kind()), jsonValue(typ.Value))
	case errors.As(err, &typ):
		return fmt.Sprintf("it must be a JSON object, not %s", jsonValue(typ.Value))
	}
	const unknown = "json: unknown field "
	if msg := err.Error(); len(msg) > len(unknown) && msg[:len(unknown)] == unknown {
		return "unknown member " + msg[len(unknown):]
	}
	return "it cannot be decoded"
}

// jsonKind names the JSON values a Go kind accepts, with an article.
func jsonKind(kind reflect.Kind) string {
	switch kind {
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Bool:
		return "a boolean"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}

// jsonValue names the JSON value encoding/json describes as v ("string",
// "number 1.5", "array", …), with an article.
func jsonValue(v string) string {
	if n, ok := strings.CutPrefix(v, "number "); ok {
		return n
	}
	switch v {
	case "bool":
		return "a boolean"
	case "array", "object":
		return "an " + v
	}
	return "a " + v
}
