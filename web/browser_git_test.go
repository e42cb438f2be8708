package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/racecase/racecase/gitserve/gittest"
)

// gitPush clones the workspace with the command "Clone with git" shows,
// pushes the fix with the real git client, and watches the page follow:
// the open file shows the pushed content, the run the push started shows
// its verdict, and the stepper advances.
func gitPush(t *testing.T, p *page) {
	openFlagship(p)
	p.click(fmt.Sprintf(`#focus button[title="Open %s"]`, fixFile))
	p.waitFor("the file", fmt.Sprintf(`document.querySelector('.tab.active[data-path=%q]')`, fixFile))

	p.click(`#clone-git`)
	p.waitFor("the clone command", `document.querySelector('#git-panel .git-command')?.value.startsWith('git clone http')`)
	command := eval[string](p, `document.querySelector('#git-panel .git-command').value`)
	fields := strings.Fields(command)
	if len(fields) != 4 || fields[3] != flagship || !strings.HasPrefix(fields[2], p.base[:len("http://")]+"git:rcg_") {
		t.Fatalf("clone command %q", command)
	}
	if n := p.count(`#git-panel code`); n < 2 {
		t.Errorf("the panel does not say how to push and submit")
	}
	p.screenshot("clone-with-git")
	p.click(`#clone-git`)

	g := gittest.New(t)
	dir := g.Clone(fields[2])
	g.CommitFile(dir, fixFile, solution(t), "claim the lock atomically")
	out := g.Must(dir, "push", "origin", "main")
	if !strings.Contains(out, "remote: racecase: Checks passed") {
		t.Fatalf("the push did not print the verdict:\n%s", out)
	}

	p.waitFor("the pushed fix in the editor", `document.querySelector('.cm-content').textContent.includes('setIfAbsent')`)
	if v := lastResults(p, "check"); v != "pass" {
		t.Fatalf("the pushed run shows verdict %q, want pass", v)
	}
	p.waitFor("steps 2 and 3 done", `document.querySelector('[data-step=edited].done') && document.querySelector('[data-step="checks-passed"].done')`)
	console := p.text(`.output`)
	for _, want := range []string{fixFile + " changed elsewhere (a git push", "started elsewhere (a git push"} {
		if !strings.Contains(console, want) {
			t.Errorf("the console does not say %q:\n%s", want, console)
		}
	}
	p.screenshot("git-push")
}
