package hiddentests

import (
	"encoding/base64"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
)

// siblingImport finds the specifier of a static import or re-export of
// another file of the same suite: `from './name.mjs'` or `import './name.mjs'`.
var siblingImport = regexp.MustCompile(`(\bfrom|\bimport)(\s*)(['"])\./([A-Za-z0-9_-]+\.mjs)(['"])`)

// otherRelativeImport finds a static import of any other relative path (a
// folder above or below, a file that is not .mjs), which a run, carrying the
// suite as one module, could not resolve.
var otherRelativeImport = regexp.MustCompile(`(?:\bfrom|\bimport)\s*['"](\.\.?/[^'"]*)['"]`)

// dynamicImport finds an import() of a relative path, which a bundled suite
// could not resolve.
var dynamicImport = regexp.MustCompile(`\bimport\s*\(\s*['"]\.\.?/`)

// Bundle turns a suite's files (SuiteFile and the modules it imports as
// './name.mjs') into the one module a run carries: every sibling import is
// replaced by a data: URL of that file, itself bundled, so the supervisor
// imports the suite from memory as before. Every file must be reached from
// SuiteFile, and files may not import each other in a cycle.
func Bundle(files map[string][]byte) ([]byte, error) {
	if _, ok := files[SuiteFile]; !ok {
		return nil, fmt.Errorf("%s is missing", SuiteFile)
	}
	b := bundler{files: files, done: map[string]string{}}
	out, err := b.bundle(SuiteFile, nil)
	if err != nil {
		return nil, err
	}
	for _, name := range slices.Sorted(maps.Keys(files)) {
		if _, used := b.done[name]; !used && name != SuiteFile {
			return nil, fmt.Errorf("%s is not imported by %s or by a file it imports: remove it, or import it as './%s'", name, SuiteFile, name)
		}
	}
	return []byte(out), nil
}

// bundler remembers each file's bundled source, so a file two others import is
// bundled once and both import the same module.
type bundler struct {
	files map[string][]byte
	done  map[string]string
}

// bundle returns name's source with its sibling imports inlined; path is the
// chain of imports that led to it.
func (b *bundler) bundle(name string, path []string) (string, error) {
	if out, ok := b.done[name]; ok {
		return out, nil
	}
	if slices.Contains(path, name) {
		return "", fmt.Errorf("the suite's files import each other in a cycle: %s → %s", strings.Join(path, " → "), name)
	}
	path = append(path, name)
	src := string(b.files[name])
	if dynamicImport.MatchString(src) {
		return "", fmt.Errorf("%s imports a file with import(): import the suite's files statically, as `import { … } from './name.mjs'`", name)
	}
	var failed error
	out := siblingImport.ReplaceAllStringFunc(src, func(m string) string {
		parts := siblingImport.FindStringSubmatch(m)
		keyword, space, quote, dep, endQuote := parts[1], parts[2], parts[3], parts[4], parts[5]
		if quote != endQuote || failed != nil {
			return m
		}
		if _, ok := b.files[dep]; !ok {
			failed = fmt.Errorf("%s imports ./%s, which is not a file of the suite", name, dep)
			return m
		}
		inner, err := b.bundle(dep, path)
		if err != nil {
			failed = err
			return m
		}
		return keyword + space + quote + "data:text/javascript;base64," + base64.StdEncoding.EncodeToString([]byte(inner)) + quote
	})
	if failed != nil {
		return "", failed
	}
	if m := otherRelativeImport.FindStringSubmatch(out); m != nil {
		return "", fmt.Errorf("%s imports %s, which a run cannot carry: a suite may import only the .mjs files beside suite.mjs, as './name.mjs'", name, m[1])
	}
	b.done[name] = out
	return out, nil
}
