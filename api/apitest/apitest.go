// Package apitest checks what the API answers against its contract,
// api/openapi.json, with libopenapi-validator (OpenAPI 3.1, JSON Schema
// 2020-12). End-to-end tests pass every response they receive through
// Check, so a response the document does not describe fails the test.
package apitest

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	liberrors "github.com/pb33f/libopenapi-validator/errors"
	"github.com/pb33f/libopenapi-validator/helpers"
	"github.com/pb33f/libopenapi-validator/schema_validation"
	"github.com/pb33f/libopenapi/datamodel/high/base"
	"github.com/racecase/racecase/api"
)

// theContract is openapi.json ready to check responses.
type theContract struct {
	responses validator.Validator
	problem   *base.Schema // components/schemas/Problem
	schemas   schema_validation.SchemaValidator
}

var (
	once     sync.Once
	contract theContract
	buildErr error
)

// load parses the OpenAPI document once per test binary.
func load() (theContract, error) {
	once.Do(func() {
		doc, err := libopenapi.NewDocument(api.OpenAPI())
		if err != nil {
			buildErr = err
			return
		}
		model, err := doc.BuildV3Model()
		if err != nil {
			buildErr = err
			return
		}
		problem := model.Model.Components.Schemas.GetOrZero("Problem")
		if problem == nil {
			buildErr = errors.New("openapi.json has no Problem schema")
			return
		}
		contract = theContract{
			responses: validator.NewValidatorFromV3Model(&model.Model),
			problem:   problem.Schema(),
			schemas:   schema_validation.NewSchemaValidator(),
		}
	})
	return contract, buildErr
}

// Check fails t unless the response to req, whose body is body, is one
// openapi.json describes (see Mismatches).
func Check(t testing.TB, req *http.Request, resp *http.Response, body []byte) {
	t.Helper()
	mismatches, err := Mismatches(req, resp, body)
	if err != nil {
		t.Fatalf("openapi.json does not load: %v", err)
	}
	if len(mismatches) > 0 {
		t.Errorf("%s %s answered %d %q, which openapi.json does not describe:\n  %s\nbody: %.400s",
			req.Method, req.URL.Path, resp.StatusCode, resp.Header.Get("Content-Type"), strings.Join(mismatches, "\n  "), body)
	}
}

// Mismatches returns how the response to req, whose body is body, departs
// from what openapi.json describes for req's method and path: its status,
// its media type and its body's schema. A HEAD response is checked as its
// GET when the body the handler wrote is known (Middleware), and not at all
// when it is not. A path or method the document does not list must be
// answered with a 404 or 405 Problem document, as its info promises.
func Mismatches(req *http.Request, resp *http.Response, body []byte) ([]string, error) {
	c, err := load()
	if err != nil {
		return nil, err
	}
	routed := req.Clone(req.Context())
	routed.URL = contractURL(req.URL)
	if req.Method == http.MethodHead {
		routed.Method = http.MethodGet
		if len(body) == 0 {
			return nil, nil // the client got headers only; there is nothing to check
		}
	}
	checked := *resp
	checked.Body = io.NopCloser(bytes.NewReader(body))
	ok, errs := c.responses.ValidateHttpResponse(routed, &checked)
	if !ok && len(errs) > 0 && errs[0].ValidationType == helpers.PathValidation {
		ok, errs = c.checkUnlisted(resp, body)
	}
	if ok {
		return nil, nil
	}
	var out []string
	for _, e := range errs {
		msg := e.Message + ": " + e.Reason
		for _, s := range e.SchemaValidationErrors {
			msg += "; " + s.FieldPath + ": " + s.Reason
		}
		out = append(out, msg)
	}
	return out, nil
}

// checkUnlisted checks the answer to a path or method openapi.json does not
// list: a 404 or 405 Problem document.
func (c theContract) checkUnlisted(resp *http.Response, body []byte) (bool, []*liberrors.ValidationError) {
	if resp.StatusCode != http.StatusNotFound && resp.StatusCode != http.StatusMethodNotAllowed ||
		resp.Header.Get("Content-Type") != "application/problem+json" {
		return false, []*liberrors.ValidationError{{Message: "an unlisted route", Reason: "want a 404 or 405 application/problem+json"}}
	}
	return c.schemas.ValidateSchemaBytes(c.problem, body)
}

// contractURL returns u with a workspace file's path (…/files/{path} and
// …/reset/{path}, which may hold slashes) folded into one escaped segment,
// as the document's single {path} parameter matches it.
func contractURL(u *url.URL) *url.URL {
	out := *u
	for _, marker := range []string{"/files/", "/reset/"} {
		if before, file, ok := strings.Cut(u.Path, marker); ok && strings.HasPrefix(before, "/api/workspaces/") && file != "" {
			out.Path = before + marker + strings.ReplaceAll(file, "/", "_")
			out.RawPath = ""
		}
	}
	return &out
}
