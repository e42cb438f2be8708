package challenges

import (
	"bytes"
	"errors"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// yamlTree is a parsed dossier.yaml kept as nodes, so that every problem can be
// reported at the line it comes from.
type yamlTree struct {
	root *yaml.Node // the document's top-level value
}

// syntaxErrLine matches the line number yaml.v3 puts in its syntax errors.
var syntaxErrLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// parserErrors are yaml.v3's parser (not scanner) error messages. yaml.v3
// v3.0.1 reports their line 0-based, and leaves it out for the first line.
var parserErrors = []string{
	"did not find expected <stream-start>",
	"did not find expected <document start>",
	"did not find expected node content",
	"did not find expected '-' indicator",
	"did not find expected key",
	"did not find expected ',' or ']'",
	"did not find expected ',' or '}'",
	"found undefined tag handle",
	"found duplicate %YAML directive",
	"found duplicate %TAG directive",
	"found incompatible YAML document",
}

// syntaxProblem locates a yaml.v3 syntax error at its 1-based line.
func syntaxProblem(file string, err error) *Problem {
	p := &Problem{File: file, Message: err.Error(), Fix: "fix the YAML syntax"}
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if m := syntaxErrLine.FindStringSubmatch(err.Error()); m != nil {
		p.Line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	if slices.Contains(parserErrors, msg) || p.Line == 0 {
		p.Line++
	}
	p.Message = "YAML syntax error: " + msg
	return p
}

// parseYAML parses data into a tree; on a syntax error it returns a problem
// located at the offending line.
func parseYAML(file string, data []byte) (*yamlTree, *Problem) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil && !errors.Is(err, io.EOF) {
		return nil, syntaxProblem(file, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, &Problem{File: file, Message: "file is empty", Fix: "write the dossier fields, starting with `format: 1`"}
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case errors.Is(err, io.EOF):
	case err != nil:
		return nil, syntaxProblem(file, err)
	default:
		return nil, &Problem{File: file, Line: next.Line, Message: "a second YAML document follows the dossier",
			Fix: "remove the `---` separator and merge or delete what follows"}
	}
	return &yamlTree{root: doc.Content[0]}, nil
}

// value converts the tree to plain JSON-like values (map[string]any, []any,
// string, bool, numbers, nil) for schema validation. Duplicate mapping keys are
// reported through dup with their field path and line.
func (t *yamlTree) value(dup func(field string, line int)) any {
	return toValue(t.root, "", dup)
}

func toValue(n *yaml.Node, field string, dup func(string, int)) any {
	n = resolve(n)
	switch n.Kind {
	case yaml.MappingNode:
		m := make(map[string]any, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i].Value
			child := k
			if field != "" {
				child = field + "." + k
			}
			if _, seen := m[k]; seen {
				dup(child, n.Content[i].Line)
				continue
			}
			m[k] = toValue(n.Content[i+1], child, dup)
		}
		return m
	case yaml.SequenceNode:
		s := make([]any, len(n.Content))
		for i, c := range n.Content {
			s[i] = toValue(c, field+"["+strconv.Itoa(i)+"]", dup)
		}
		return s
	case yaml.ScalarNode:
		return scalarValue(n)
	}
	return nil
}

// scalarValue types a scalar the way YAML resolves it. Dates and other tags
// without a JSON equivalent stay strings, as written.
func scalarValue(n *yaml.Node) any {
	switch n.ShortTag() {
	case "!!null":
		return nil
	case "!!bool", "!!int", "!!float":
		var v any
		if err := n.Decode(&v); err != nil {
			return n.Value
		}
		if f, ok := v.(float64); ok && (math.IsInf(f, 0) || math.IsNaN(f)) {
			return n.Value
		}
		return v
	}
	return n.Value
}

// resolve follows aliases to the node they name.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// lookup walks path tokens (keys and decimal indexes) from the root. It returns
// the mapping key node (nil for sequence items and the root), the value node,
// and how many tokens it could follow.
func (t *yamlTree) lookup(tokens []string) (key, val *yaml.Node, depth int) {
	val = t.root
	for _, tok := range tokens {
		var nextKey, next *yaml.Node
		switch val.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(val.Content); i += 2 {
				if val.Content[i].Value == tok {
					nextKey, next = val.Content[i], resolve(val.Content[i+1])
					break
				}
			}
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(val.Content) {
				next = resolve(val.Content[i])
			}
		}
		if next == nil {
			return key, val, depth
		}
		key, val = nextKey, next
		depth++
	}
	return key, val, depth
}

// line is the line of a field like "hints[2].text": the value's line for a
// scalar, the key's line for a mapping or sequence. For a field that does not
// exist it is the line of its closest existing parent (0 for the top level).
func (t *yamlTree) line(field string) int {
	if t == nil {
		return 0
	}
	key, val, depth := t.lookup(splitField(field))
	if depth == 0 {
		return 0
	}
	if val.Kind != yaml.ScalarNode && key != nil {
		return key.Line
	}
	return val.Line
}

// field formats instance-location tokens as a field path, using the tree to
// tell sequence indexes from mapping keys.
func (t *yamlTree) field(tokens []string) string {
	isIndex := make([]bool, len(tokens))
	for i := range tokens {
		_, parent, depth := t.lookup(tokens[:i])
		isIndex[i] = depth == i && parent.Kind == yaml.SequenceNode
	}
	var b strings.Builder
	for i, tok := range tokens {
		switch {
		case isIndex[i]:
			b.WriteString("[" + tok + "]")
		case i == 0:
			b.WriteString(tok)
		default:
			b.WriteString("." + tok)
		}
	}
	return b.String()
}

// splitField turns "architecture.edges[1].to" into ["architecture" "edges" "1" "to"].
func splitField(field string) []string {
	var tokens []string
	for _, part := range strings.Split(field, ".") {
		name, rest, _ := strings.Cut(part, "[")
		if name != "" {
			tokens = append(tokens, name)
		}
		for rest != "" {
			idx, after, _ := strings.Cut(rest, "]")
			tokens = append(tokens, idx)
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return tokens
}
