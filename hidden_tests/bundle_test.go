package hiddentests

import (
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

// A suite split into files: two of them import the same helper, which must
// be evaluated once, as it would be when Node loads the files from disk.
var splitSuite = fstest.MapFS{
	"split/suite.mjs": {Data: []byte(`import { scenarios } from './scenarios.mjs';
import { count, bump } from "./counter.mjs";
export { label } from './labels.mjs';
bump();
export default { scenarios, evaluations: count() };
`)},
	"split/scenarios.mjs": {Data: []byte("import { bump } from './counter.mjs';\nbump();\nexport const scenarios = ['a', 'b'];\n")},
	"split/counter.mjs":   {Data: []byte("let n = 0;\nglobalThis.loads = (globalThis.loads ?? 0) + 1;\nexport const bump = () => { n += 1; };\nexport const count = () => ({ bumps: n, loads: globalThis.loads });\n")},
	"split/labels.mjs":    {Data: []byte("export const label = 'split';\n")},
	"split/notes.txt":     {Data: []byte("not a module")},
	"split/old/suite.mjs": {Data: []byte("export default {}")},
}

func TestSourcesFromTakesEveryModuleBesideTheSuite(t *testing.T) {
	files, err := SourcesFrom(splitSuite, "split")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 4 || files["labels.mjs"] == nil || files["notes.txt"] != nil {
		t.Errorf("SourcesFrom(split) has %d files: %v", len(files), slices.Sorted(maps.Keys(files)))
	}
}

func TestBundledSuiteImportsAsItsFilesWould(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("Node.js must be on PATH: the harness and its suites run on it")
	}
	hidden, err := SuiteFrom(splitSuite, "split")
	if err != nil {
		t.Fatal(err)
	}
	bundled := string(hidden[SuiteFile])
	if strings.Contains(bundled, "./") || !strings.Contains(bundled, "data:text/javascript;base64,") {
		t.Fatalf("bundle still names sibling files or inlines none:\n%s", bundled)
	}
	// Imported from memory, like the supervisor does.
	file := filepath.Join(t.TempDir(), "run.mjs")
	script := "const m = await import('data:text/javascript;base64,' + Buffer.from(process.argv[2]).toString('base64'));\n" +
		"console.log(JSON.stringify({ ...m.default, label: m.label }));\n"
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, file, bundled).CombinedOutput()
	if err != nil {
		t.Fatalf("node: %v\n%s", err, out)
	}
	want := `{"scenarios":["a","b"],"evaluations":{"bumps":2,"loads":1},"label":"split"}`
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("the bundled suite gives %s, want %s", got, want)
	}
}

func TestBrokenSplitSuitesAreRefusedByName(t *testing.T) {
	for name, c := range map[string]struct {
		files map[string]string
		want  string
	}{
		"unknown file":  {map[string]string{"suite.mjs": "import { x } from './helpers.mjs';"}, "imports ./helpers.mjs, which is not a file of the suite"},
		"unused file":   {map[string]string{"suite.mjs": "export default {};", "old.mjs": "export const x = 1;"}, "old.mjs is not imported"},
		"cycle":         {map[string]string{"suite.mjs": "import './a.mjs';", "a.mjs": "import './b.mjs';", "b.mjs": "import './a.mjs';"}, "suite.mjs → a.mjs → b.mjs → a.mjs"},
		"no suite file": {map[string]string{"a.mjs": "export const x = 1;"}, "suite.mjs is missing"},
		"folder above":  {map[string]string{"suite.mjs": "import { x } from '../shared.mjs';"}, "imports ../shared.mjs, which a run cannot carry"},
		"not .mjs":      {map[string]string{"suite.mjs": "import { x } from './helpers.js';"}, "imports ./helpers.js, which a run cannot carry"},
		"import()":      {map[string]string{"suite.mjs": "export default async () => (await import('./a.mjs')).x;", "a.mjs": "export const x = 1;"}, "imports a file with import()"},
	} {
		files := map[string][]byte{}
		for file, src := range c.files {
			files[file] = []byte(src)
		}
		if _, err := Bundle(files); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Bundle error %v, want one saying %q", name, err, c.want)
		}
	}
	broken := fstest.MapFS{"x/suite.mjs": {Data: []byte("import './gone.mjs';")}}
	if _, err := SuiteFrom(broken, "x"); !errors.Is(err, ErrBrokenSuite) {
		t.Errorf("SuiteFrom of a suite importing a missing file: err %v, want ErrBrokenSuite", err)
	}
}
