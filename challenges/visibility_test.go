package challenges

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
)

// visibilityRank orders visibilities from the least to the most seen.
var visibilityRank = map[Visibility]int{VisibilityInternal: 0, VisibilitySecret: 1, VisibilityPublic: 2}

// schemaDoc is the dossier schema as plain JSON values.
func schemaDoc(t *testing.T) map[string]any {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal(SchemaJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// childProperties returns the properties of the object a schema node's
// value is, or of its items, following $refs; nil for a scalar.
func childProperties(doc, n map[string]any) map[string]any {
	defs := doc["$defs"].(map[string]any)
	deref := func(n map[string]any) map[string]any {
		if ref, ok := n["$ref"].(string); ok {
			return defs[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
		}
		return n
	}
	n = deref(n)
	if items, ok := n["items"].(map[string]any); ok {
		n = deref(items)
	}
	props, _ := n["properties"].(map[string]any)
	return props
}

// TestSchemaMarksEveryFieldVisibility makes every new field say who sees it:
// each property of the schema, nested ones and those of $defs included, has
// an x-visibility, and an object is exactly as visible as its most visible
// part, so that no part is more visible than what holds it.
func TestSchemaMarksEveryFieldVisibility(t *testing.T) {
	doc := schemaDoc(t)
	var walk func(where string, props map[string]any)
	walk = func(where string, props map[string]any) {
		for name, p := range props {
			n := p.(map[string]any)
			at := where + "/" + name
			v := Visibility(fmtString(n[visibilityKey]))
			if _, ok := visibilityRank[v]; !ok {
				t.Errorf("%s has x-visibility %v, want public, secret or internal", at, n[visibilityKey])
				continue
			}
			children := childProperties(doc, n)
			if len(children) == 0 {
				continue
			}
			most := VisibilityInternal
			for _, c := range children {
				if cv := Visibility(fmtString(c.(map[string]any)[visibilityKey])); visibilityRank[cv] > visibilityRank[most] {
					most = cv
				}
			}
			if most != v {
				t.Errorf("%s is %s, but its most visible part is %s", at, v, most)
			}
			walk(at, children)
		}
	}
	walk("#", doc["properties"].(map[string]any))
	for name, def := range doc["$defs"].(map[string]any) {
		walk("#/$defs/"+name, childProperties(doc, def.(map[string]any)))
	}
}

// fmtString returns v when it is a string, else "".
func fmtString(v any) string {
	s, _ := v.(string)
	return s
}

func TestFieldTextsCarryTheirVisibility(t *testing.T) {
	d, err := Load(FS, "job-lock-double-send")
	if err != nil {
		t.Fatal(err)
	}
	texts, err := d.FieldTexts()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]FieldText{}
	for _, ft := range texts {
		if _, ok := visibilityRank[ft.Visibility]; !ok {
			t.Errorf("%s has no visibility", ft.Field)
		}
		got[ft.Field] = ft
	}
	for field, want := range map[string]Visibility{
		"title": VisibilityPublic, "incident.symptom": VisibilityPublic, "hints[0].text": VisibilityPublic,
		"wrong_turns[0].looks_like": VisibilityPublic, "wrong_turns[0].decoys[0]": VisibilityInternal,
		"secret.explanation": VisibilitySecret, "secret.correct_hypothesis": VisibilitySecret,
		"playbook.error": VisibilityPublic, "playbook.tldr": VisibilitySecret, "playbook.steps[0].action": VisibilitySecret,
		"playbook.fix_terms[0]": VisibilityInternal,
	} {
		if got[field].Visibility != want {
			t.Errorf("%s: visibility %q, want %q", field, got[field].Visibility, want)
		}
	}
	if got["secret.explanation"].Text != d.Secret.Explanation {
		t.Errorf("secret.explanation holds %q", got["secret.explanation"].Text)
	}
	if _, ok := got["logs[0].lines[0]"]; ok {
		t.Error("a log line, loaded from evidence/, is listed as a field")
	}
}

// TestLearnerJSONHoldsOnlyPublicFields checks what the API serves of a
// dossier before a pass, the dossier and a wrong turn, against the schema:
// every member that is a schema field is marked public, and no text of a
// secret or internal field appears that no public field also holds.
func TestLearnerJSONHoldsOnlyPublicFields(t *testing.T) {
	doc := schemaDoc(t)
	dossiers, err := LoadAll(FS)
	if err != nil {
		t.Fatal(err)
	}
	public := map[string]bool{}
	for _, d := range dossiers {
		texts, err := d.FieldTexts()
		if err != nil {
			t.Fatal(err)
		}
		for _, ft := range texts {
			if ft.Visibility == VisibilityPublic {
				public[ft.Text] = true
			}
		}
	}
	wrongTurnSchema := doc["$defs"].(map[string]any)["wrong_turn"].(map[string]any)["properties"].(map[string]any)
	for _, d := range dossiers {
		texts, _ := d.FieldTexts()
		var withheld []string
		for _, ft := range texts {
			if ft.Visibility != VisibilityPublic && !public[ft.Text] {
				withheld = append(withheld, ft.Text)
			}
		}
		if len(withheld) == 0 {
			t.Fatalf("%s: no secret text to look for", d.Slug)
		}
		served := map[string]any{"dossier": d.Public()}
		var failed, passed []string // every test both ways, so that every wrong turn is served
		for _, w := range d.WrongTurns {
			failed, passed = append(failed, w.Tests...), append(passed, w.Passes...)
		}
		for i, w := range d.WrongTurnsFor(failed, passed) {
			served["wrong turn "+strconv.Itoa(i)] = w
		}
		for what, v := range served {
			data, err := json.Marshal(v)
			if err != nil {
				t.Fatal(err)
			}
			var tree any
			if err := json.Unmarshal(data, &tree); err != nil {
				t.Fatal(err)
			}
			props := doc["properties"].(map[string]any)
			if what != "dossier" {
				props = wrongTurnSchema
			}
			checkPublicMembers(t, doc, d.Slug+" "+what, props, tree)
			for _, s := range jsonStrings(tree) {
				for _, w := range withheld {
					if s == w || len(w) > 40 && strings.Contains(s, w) {
						t.Errorf("%s %s serves secret text %q", d.Slug, what, w)
					}
				}
			}
		}
	}
}

// checkPublicMembers reports every member of value that props describes
// without marking it public, and walks into the public ones.
func checkPublicMembers(t *testing.T, doc map[string]any, where string, props map[string]any, value any) {
	t.Helper()
	switch v := value.(type) {
	case []any:
		for _, e := range v {
			checkPublicMembers(t, doc, where, props, e)
		}
	case map[string]any:
		for name, member := range v {
			p, ok := props[name].(map[string]any)
			if !ok {
				continue // computed at load, e.g. hint_count
			}
			if vis := Visibility(fmtString(p[visibilityKey])); vis != VisibilityPublic {
				t.Errorf("%s serves %s, which the schema marks %s", where, name, vis)
				continue
			}
			if children := childProperties(doc, p); children != nil {
				checkPublicMembers(t, doc, where+"."+name, children, member)
			}
		}
	}
}

// jsonStrings returns every string in a JSON value.
func jsonStrings(v any) []string {
	switch x := v.(type) {
	case string:
		return []string{x}
	case []any:
		var out []string
		for _, e := range x {
			out = append(out, jsonStrings(e)...)
		}
		return out
	case map[string]any:
		var out []string
		for _, e := range x {
			out = append(out, jsonStrings(e)...)
		}
		return out
	}
	return nil
}
