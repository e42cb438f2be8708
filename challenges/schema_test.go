package challenges

import (
	"encoding/json"
	"testing"
)

func TestSchemaCompiles(t *testing.T) {
	if _, err := loadSchema(); err != nil {
		t.Fatal(err)
	}
}

// TestSchemaDocumented checks that editors get help for every field and that
// no object accepts fields the schema does not name.
func TestSchemaDocumented(t *testing.T) {
	var doc map[string]any
	if err := json.Unmarshal(SchemaJSON(), &doc); err != nil {
		t.Fatal(err)
	}
	var walk func(where string, n map[string]any)
	walk = func(where string, n map[string]any) {
		if _, ok := n["description"].(string); !ok {
			t.Errorf("%s has no description", where)
		}
		if props, ok := n["properties"].(map[string]any); ok {
			if n["additionalProperties"] != false {
				t.Errorf("%s does not set additionalProperties: false", where)
			}
			for name, p := range props {
				walk(where+"/properties/"+name, p.(map[string]any))
			}
		}
		if items, ok := n["items"].(map[string]any); ok {
			if _, ref := items["$ref"]; !ref {
				walk(where+"/items", items)
			}
		}
	}
	walk("#", doc)
	for name, def := range doc["$defs"].(map[string]any) {
		walk("#/$defs/"+name, def.(map[string]any))
	}
}
