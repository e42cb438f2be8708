package web_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

func saveConflict(t *testing.T, p *page) {
	openFlagship(p)
	p.click(fmt.Sprintf(`#focus button[title="Open %s"]`, fixFile))
	p.waitFor("the file", fmt.Sprintf(`document.querySelector('.tab.active[data-path=%q]')`, fixFile))
	p.click(`.cm-content .cm-line`)
	p.keys("go to the start", kb.Home, chromedp.ModifierCtrl)
	p.watchSave()
	p.insertText("// mine 1\n")
	p.keys("save now", "s", chromedp.ModifierCtrl)
	p.waitSaved("the first save")
	ws := eval[string](p, `fetch('/api/workspaces').then(r => r.json()).then(j => j.workspaces[0].id)`)
	url := "/api/workspaces/" + ws + "/files/" + fixFile
	type file struct {
		Content string `json:"content"`
		Version int64  `json:"version"`
	}
	cur := fetchJSON[file](p, "GET", url, nil)
	if !strings.HasPrefix(cur.Content, "// mine 1\n") {
		t.Fatalf("the first edit was not saved: %.40q", cur.Content)
	}
	// Another tab saves a newer version while this one holds an unsaved edit.
	// The edit goes into the editor in the same task that sends the other
	// tab's save, so the page learns of the newer version only with its edit
	// unsaved (a page with nothing unsaved just takes the newer version).
	theirs := "// theirs\n" + cur.Content
	body, _ := json.Marshal(map[string]any{"content": theirs, "base_version": cur.Version})
	saved := eval[bool](p, fmt.Sprintf(`(() => {
		const sent = fetch(%q, {method: 'PUT', headers: {'Content-Type': 'application/json'}, body: %q});
		const view = document.querySelector('.cm-content').cmTile.root.view; // what EditorView.findFromDOM reads: the bundle does not export it
		view.dispatch(view.state.replaceSelection('// mine 2\n'));
		return sent.then((r) => r.ok);
	})()`, url, body))
	if !saved {
		t.Fatal("the other tab's save was refused")
	}
	p.waitFor("the conflict bar", `document.querySelector('.conflict-bar') && document.querySelector('.save-pill').dataset.state === 'conflict'`)
	if got := fetchJSON[file](p, "GET", url, nil); got.Content != theirs {
		t.Fatalf("the conflicting save overwrote the other tab's version")
	}
	p.screenshot("save-conflict")
	p.click(`.conflict-bar .btn.primary`) // Keep my version
	p.waitFor("the resolved save", `!document.querySelector('.conflict-bar') && document.querySelector('.save-pill').dataset.state === 'saved'`)
	got := fetchJSON[file](p, "GET", url, nil)
	if !strings.HasPrefix(got.Content, "// mine 1\n// mine 2\n") || strings.Contains(got.Content, "// theirs") {
		t.Errorf("after keeping my version the server holds %.60q", got.Content)
	}

	// Reset file asks first, then puts the original back in the editor and on the server.
	p.click(`#reset-file`)
	p.click(`.confirm .btn.danger`)
	p.waitFor("the reset", fmt.Sprintf(`!document.querySelector('.tree-item.file.changed[data-path=%q]') && document.querySelector('.cm-content').textContent.startsWith('/**')`, fixFile))
	if got := fetchJSON[struct {
		Changed bool `json:"changed"`
	}](p, "GET", url, nil); got.Changed {
		t.Errorf("the server still holds a changed file after Reset file")
	}
}
