package challenges

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strconv"
)

// Visibility says who may read a dossier field, as the schema's x-visibility
// marks it.
type Visibility string

// The visibilities a dossier field can have.
const (
	// VisibilityPublic fields are served before a learner has solved the dossier: the
	// panels, hint texts once revealed, wrong turns after a failed
	// submission, and the catalog's searched phrases. They must not give
	// the fix away.
	VisibilityPublic Visibility = "public"
	// VisibilitySecret fields are served only after a passing submission: the answer
	// and most of the playbook.
	VisibilitySecret Visibility = "secret"
	// VisibilityInternal fields are never served: they are for racecase's own checks.
	VisibilityInternal Visibility = "internal"
)

// visibilityKey is the schema keyword that marks a property's visibility.
const visibilityKey = "x-visibility"

// FieldText is one string a dossier field holds.
type FieldText struct {
	// Field is where it is, e.g. "hints[2].text".
	Field string
	// Visibility is the field's, from the schema.
	Visibility Visibility
	// Text is the string itself.
	Text string
}

// FieldTexts returns every string the fields of dossier.yaml hold, sorted by
// field name at each level, each with the visibility the schema gives its field. Values
// computed at load (log lines, metric values) are not fields and are left out.
func (d *Dossier) FieldTexts() ([]FieldText, error) {
	s, err := loadSchema()
	if err != nil {
		return nil, err
	}
	data, err := json.Marshal(d)
	if err != nil {
		return nil, fmt.Errorf("challenges: %s: %w", d.Slug, err)
	}
	var tree any
	if err := json.Unmarshal(data, &tree); err != nil {
		return nil, fmt.Errorf("challenges: %s: %w", d.Slug, err)
	}
	var out []FieldText
	s.collectTexts(&out, "", s.raw, "", tree)
	return out, nil
}

// collectTexts appends the strings of value, found at field and described by
// the schema node n, inheriting vis from the nearest marked parent.
func (s *dossierSchema) collectTexts(out *[]FieldText, field string, n map[string]any, vis Visibility, value any) {
	if v, ok := n[visibilityKey].(string); ok {
		vis = Visibility(v)
	}
	n = s.deref(n)
	switch v := value.(type) {
	case string:
		*out = append(*out, FieldText{Field: field, Visibility: vis, Text: v})
	case []any:
		items, _ := n["items"].(map[string]any)
		for i, item := range v {
			if items != nil {
				s.collectTexts(out, field+"["+strconv.Itoa(i)+"]", items, vis, item)
			}
		}
	case map[string]any:
		props, _ := n["properties"].(map[string]any)
		for _, name := range slices.Sorted(maps.Keys(v)) {
			if p, ok := props[name].(map[string]any); ok { // computed values have no schema
				s.collectTexts(out, joinName(field, name), p, vis, v[name])
			}
		}
	}
}
