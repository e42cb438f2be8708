package authoring

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/racecase/racecase/challenges"
)

// withSource returns the text of a dossier.yaml with its top-level source
// field set to s. An existing source block is replaced in place and anything
// else, comments included, is left as written; without one, the block is
// appended at the end.
func withSource(data []byte, s challenges.Source) ([]byte, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil, errors.New("dossier.yaml is not a mapping of fields; fix it first (racecase lint)")
	}
	block, err := sourceBlock(s)
	if err != nil {
		return nil, err
	}
	lines := strings.SplitAfter(string(data), "\n")
	start, end := len(lines), len(lines)
	fields := doc.Content[0].Content
	for i := 0; i+1 < len(fields); i += 2 {
		if fields[i].Value != "source" {
			continue
		}
		start = fields[i].Line - 1
		if i+2 < len(fields) {
			end = fields[i+2].Line - 1
		}
		// Comments and blank lines just above the next field belong to it.
		for end > start+1 && isBlankOrComment(lines[end-1]) {
			end--
		}
		break
	}
	var out bytes.Buffer
	for _, l := range lines[:start] {
		out.WriteString(l)
	}
	if start == len(lines) && out.Len() > 0 && !bytes.HasSuffix(out.Bytes(), []byte("\n")) {
		out.WriteString("\n")
	}
	out.Write(block)
	for _, l := range lines[end:] {
		out.WriteString(l)
	}

	var check struct {
		Source challenges.Source `yaml:"source"`
	}
	if err := yaml.Unmarshal(out.Bytes(), &check); err != nil || !reflect.DeepEqual(check.Source, s) {
		return nil, fmt.Errorf("could not write the source field into dossier.yaml (%v); add it by hand:\n%s", err, block)
	}
	return out.Bytes(), nil
}

// sourceBlock renders the source field as a top-level YAML block.
func sourceBlock(s challenges.Source) ([]byte, error) {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(map[string]challenges.Source{"source": s}); err != nil {
		return nil, err
	}
	if err := enc.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// isBlankOrComment reports whether a line is empty or a comment at the left margin.
func isBlankOrComment(line string) bool {
	t := strings.TrimRight(line, "\r\n")
	return strings.TrimSpace(t) == "" || strings.HasPrefix(t, "#")
}
