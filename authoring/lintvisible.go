package authoring

import (
	"encoding/json"
	"fmt"
	"path"
	"strings"

	"github.com/racecase/racecase/challenges"
)

// visibleCommand is the visible check's command: the runner runs the
// repository's node --test tests, which is what npm test does.
const visibleCommand = "npm test"

// packageJSON is the part of package.json the visible check depends on.
type packageJSON struct {
	Type                 string            `json:"type"`
	Scripts              map[string]string `json:"scripts"`
	Dependencies         map[string]string `json:"dependencies"`
	DevDependencies      map[string]string `json:"devDependencies"`
	OptionalDependencies map[string]string `json:"optionalDependencies"`
	PeerDependencies     map[string]string `json:"peerDependencies"`
}

// checkVisible reports what keeps the visible check from running with npm
// test: the dossier's command, package.json, and repo/test/. d is nil when
// the dossier did not load.
func (l *linter) checkVisible(slug string, repo map[string][]byte, d *challenges.Dossier) {
	if d != nil && d.Checks.Visible.Command != visibleCommand {
		l.add(path.Join(slug, challenges.DossierFile), "checks.visible.command",
			fmt.Sprintf("the visible check runs the repository's npm test, not %q", d.Checks.Visible.Command),
			"write command: npm test")
	}
	if repo == nil {
		return
	}
	l.checkPackageJSON(slug, repo["package.json"])
	for name := range repo {
		if ext := path.Ext(name); strings.HasPrefix(name, "test/") && (ext == ".js" || ext == ".mjs" || ext == ".cjs") {
			return
		}
	}
	l.add(path.Join(slug, challenges.RepoDir, "test"), "",
		"repo/test/ has no test file, and the visible check runs node --test test/",
		"add the reproduction test as repo/test/<name>.test.js")
}

// checkPackageJSON reports a package.json whose npm test does not run the
// visible tests in the runner: no network, nothing installed, ES modules.
func (l *linter) checkPackageJSON(slug string, data []byte) {
	if data == nil {
		return // loading reports a missing package.json
	}
	file := path.Join(slug, challenges.RepoDir, "package.json")
	var pkg packageJSON
	if err := json.Unmarshal(data, &pkg); err != nil {
		l.add(file, "", fmt.Sprintf("not valid JSON: %v", err), "fix the JSON syntax")
		return
	}
	switch test := pkg.Scripts["test"]; {
	case test == "":
		l.add(file, "scripts.test", "no test script, so npm test runs nothing",
			`add "scripts": {"test": "node --test test/"}`)
	case !strings.Contains(test, "node --test"):
		l.add(file, "scripts.test", fmt.Sprintf("npm test runs %q; the runner runs the tests with node --test", test),
			`write "test": "node --test test/"`)
	}
	if pkg.Type != "module" {
		l.add(file, "type", "the hidden tests load the repository as ES modules", `add "type": "module"`)
	}
	for field, deps := range map[string]map[string]string{
		"dependencies": pkg.Dependencies, "devDependencies": pkg.DevDependencies,
		"optionalDependencies": pkg.OptionalDependencies, "peerDependencies": pkg.PeerDependencies,
	} {
		if len(deps) > 0 {
			l.add(file, field, "the runner has no network and installs nothing",
				"remove them: the repository must run on Node.js alone")
		}
	}
}
