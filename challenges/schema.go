package challenges

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

//go:embed schema/dossier.schema.json
var schemaJSON []byte

// SchemaURL is the $id of the dossier JSON Schema.
const SchemaURL = "https://racecase.dev/schema/dossier.schema.json"

// SchemaJSON returns the JSON Schema (draft 2020-12) that dossier.yaml files follow.
func SchemaJSON() []byte { return bytes.Clone(schemaJSON) }

// dossierSchema is the compiled schema plus its raw document, which supplies
// field descriptions and known field names for problem reports.
type dossierSchema struct {
	compiled *jsonschema.Schema
	raw      map[string]any
}

var loadSchema = sync.OnceValues(func() (*dossierSchema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schemaJSON))
	if err != nil {
		return nil, fmt.Errorf("challenges: parse dossier schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaURL, doc); err != nil {
		return nil, fmt.Errorf("challenges: add dossier schema: %w", err)
	}
	compiled, err := c.Compile(SchemaURL)
	if err != nil {
		return nil, fmt.Errorf("challenges: compile dossier schema: %w", err)
	}
	var raw map[string]any
	if err := json.Unmarshal(schemaJSON, &raw); err != nil {
		return nil, fmt.Errorf("challenges: read dossier schema: %w", err)
	}
	return &dossierSchema{compiled: compiled, raw: raw}, nil
})

var printer = message.NewPrinter(language.English)

// validate checks the tree's values against the schema and reports each
// failure at its field and line.
func (s *dossierSchema) validate(file string, t *yamlTree, inst any) Problems {
	err := s.compiled.Validate(inst)
	if err == nil {
		return nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return Problems{{File: file, Message: err.Error()}}
	}
	var ps Problems
	for _, leaf := range leaves(verr, nil) {
		ps = append(ps, s.problems(file, t, leaf)...)
	}
	return ps
}

// leaves returns the innermost errors: the failures that say what is wrong.
func leaves(e *jsonschema.ValidationError, out []*jsonschema.ValidationError) []*jsonschema.ValidationError {
	if len(e.Causes) == 0 {
		return append(out, e)
	}
	for _, c := range e.Causes {
		out = leaves(c, out)
	}
	return out
}

// problems turns one schema failure into problems with a field, line and fix.
func (s *dossierSchema) problems(file string, t *yamlTree, e *jsonschema.ValidationError) Problems {
	tokens := e.InstanceLocation
	field := t.field(tokens)
	p := Problem{File: file, Field: field, Line: t.line(field), Fix: s.describe(tokens)}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		var ps Problems
		for _, name := range k.Missing {
			child := p
			child.Field = joinName(field, name)
			child.Message = "missing required field"
			child.Fix = fmt.Sprintf("add `%s`: %s", name, s.describe(append(slices.Clone(tokens), name)))
			ps = append(ps, child)
		}
		return ps
	case *kind.AdditionalProperties:
		known := s.properties(tokens)
		var ps Problems
		for _, name := range k.Properties {
			child := p
			child.Field = joinName(field, name)
			child.Line = t.line(child.Field)
			child.Message = fmt.Sprintf("unknown field %q", name)
			child.Fix = "remove it; known fields: " + strings.Join(known, ", ")
			if near := closest(name, known); near != "" {
				child.Fix = fmt.Sprintf("did you mean %q?", near)
			}
			ps = append(ps, child)
		}
		return ps
	case *kind.Enum:
		want := make([]string, len(k.Want))
		for i, w := range k.Want {
			want[i] = fmt.Sprint(w)
		}
		p.Message = fmt.Sprintf("%v is not allowed", display(k.Got))
		p.Fix = "use one of: " + strings.Join(want, ", ")
	case *kind.Type:
		p.Message = k.LocalizedString(printer)
		if len(tokens) == 0 {
			p.Fix = "write dossier.yaml as a mapping of fields, starting with `format: 1`"
		}
	case *kind.Pattern:
		p.Message = fmt.Sprintf("%q is not in the expected form", k.Got)
		if strings.TrimSpace(k.Got) == "" {
			p.Message = "must not be blank"
		}
	default:
		p.Message = k.LocalizedString(printer)
	}
	return Problems{p}
}

// display quotes strings so that `"" is not allowed` reads clearly.
func display(v any) string {
	if s, ok := v.(string); ok {
		return fmt.Sprintf("%q", s)
	}
	return fmt.Sprint(v)
}

// joinName appends a key to a field path.
func joinName(field, name string) string {
	if field == "" {
		return name
	}
	return field + "." + name
}

// node returns the schema object describing the value at tokens, following
// local $refs, and the most specific description found on the way.
func (s *dossierSchema) node(tokens []string) (map[string]any, string) {
	cur := s.raw
	desc, _ := cur["description"].(string)
	for _, tok := range tokens {
		cur = s.deref(cur)
		var next map[string]any
		if props, ok := cur["properties"].(map[string]any); ok {
			next, _ = props[tok].(map[string]any)
		}
		if next == nil {
			next, _ = cur["items"].(map[string]any)
		}
		if next == nil {
			return nil, ""
		}
		cur = next
		desc, _ = cur["description"].(string)
		if desc == "" {
			desc, _ = s.deref(cur)["description"].(string)
		}
	}
	return s.deref(cur), desc
}

// deref follows "$ref": "#/$defs/name" chains.
func (s *dossierSchema) deref(n map[string]any) map[string]any {
	for range 8 {
		ref, ok := n["$ref"].(string)
		if !ok {
			return n
		}
		defs, _ := s.raw["$defs"].(map[string]any)
		target, _ := defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		if target == nil {
			return n
		}
		n = target
	}
	return n
}

// describe returns the schema's description of the value at tokens.
func (s *dossierSchema) describe(tokens []string) string {
	_, desc := s.node(tokens)
	return desc
}

// properties returns the sorted field names allowed in the object at tokens.
func (s *dossierSchema) properties(tokens []string) []string {
	n, _ := s.node(tokens)
	props, _ := n["properties"].(map[string]any)
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// closest returns the candidate within a small edit distance of name, if any.
func closest(name string, candidates []string) string {
	best, bestDist := "", 3
	for _, c := range candidates {
		if d := editDistance(name, c); d < bestDist {
			best, bestDist = c, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
