package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/racecase/racecase/runner/runnertest"
)

// TestTwentyClientsAtOnce has ten learners with two tabs each save the same
// file and start runs as fast as they can for a few seconds. No request may
// fail with a 5xx, every acknowledged save must either be the file's final
// content or have been replaced by a later acknowledged save (no lost
// update), and every run must execute once and end with one verdict.
func TestTwentyClientsAtOnce(t *testing.T) {
	t.Parallel()
	runnertest.Engine(t)
	srv := startServe(t, "--workers", "2", "--max-queued", "6")
	const learners, tabs, path = 10, 2, "src/config.js"
	type ack struct {
		version int64
		content string
	}
	var (
		mu       sync.Mutex
		statuses = map[int]int{}
		problems []string
		acks     = make([][]ack, learners)
		runs     = map[string]int{} // run id → learner
	)
	note := func(r response, err error, what string) {
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s: %v", what, err))
			return
		}
		statuses[r.status]++
		if r.status >= 500 {
			problems = append(problems, fmt.Sprintf("%s: %d %s", what, r.status, r.body))
		}
	}
	clients := make([]*client, learners)
	workspaces := make([]string, learners)
	for i := range clients {
		clients[i] = newClient(t, srv.URL)
		workspaces[i] = clients[i].createWorkspace().ID
	}
	deadline := time.Now().Add(4 * time.Second)
	var wg sync.WaitGroup
	for l := range learners {
		for tab := range tabs {
			wg.Add(1)
			go func() {
				defer wg.Done()
				c, ws := clients[l], workspaces[l]
				for i := 1; time.Now().Before(deadline); i++ {
					time.Sleep(time.Duration(rand.IntN(10)) * time.Millisecond) // typing between autosaves
					r, err := c.try("GET", "/api/workspaces/"+ws+"/files/"+path, nil)
					note(r, err, "read")
					if err != nil || r.status != http.StatusOK {
						continue
					}
					var f fileJSON
					if err := json.Unmarshal(r.body, &f); err != nil {
						note(r, err, "read")
						continue
					}
					content := fmt.Sprintf("// learner %d, tab %d, save %d\n", l, tab, i)
					r, err = c.try("PUT", "/api/workspaces/"+ws+"/files/"+path, map[string]any{"content": content, "base_version": f.Version})
					note(r, err, "save")
					var saved fileJSON
					if err == nil && r.status == http.StatusOK && json.Unmarshal(r.body, &saved) == nil {
						mu.Lock()
						acks[l] = append(acks[l], ack{saved.Version, content})
						mu.Unlock()
					}
					if i%4 == 0 {
						kind := []string{"check", "submit"}[i/4%2]
						r, err = c.try("POST", "/api/workspaces/"+ws+"/runs", map[string]string{"kind": kind})
						note(r, err, "run")
						var run runJSON
						if err == nil && r.status == http.StatusAccepted && json.Unmarshal(r.body, &run) == nil {
							mu.Lock()
							runs[run.ID] = l
							mu.Unlock()
						}
					}
				}
			}()
		}
	}
	wg.Wait()
	if len(problems) > 0 {
		t.Fatalf("%d failed requests, e.g. %v", len(problems), problems[:min(len(problems), 5)])
	}
	t.Logf("statuses: %v; %d runs queued", statuses, len(runs))
	if statuses[http.StatusOK] == 0 || statuses[http.StatusConflict] == 0 || len(runs) == 0 {
		t.Fatalf("the clients did not contend: statuses %v, %d runs", statuses, len(runs))
	}

	for l, list := range acks {
		latest := ack{}
		seen := map[int64]bool{}
		for _, a := range list {
			if seen[a.version] {
				t.Errorf("learner %d: two saves were both acknowledged as version %d", l, a.version)
			}
			seen[a.version] = true
			if a.version > latest.version {
				latest = a
			}
		}
		f := decode[fileJSON](t, clients[l].do("GET", "/api/workspaces/"+workspaces[l]+"/files/"+path, nil).want(t, http.StatusOK))
		if f.Version != latest.version || f.Content != latest.content {
			t.Errorf("learner %d: the file is version %d %q, the last acknowledged save was version %d %q",
				l, f.Version, f.Content, latest.version, latest.content)
		}
	}

	for id, l := range runs {
		run := clients[l].verdictOf(id)
		if run.Executions != 1 || run.Verdict == "" {
			t.Errorf("run %s: %d executions, verdict %q", id, run.Executions, run.Verdict)
		}
	}
	srv.stop()
	db := openReadOnly(t, srv.Data)
	var done, verdicts, executions, attempts int
	if err := db.QueryRow(`SELECT count(*), coalesce(sum(executions), 0) FROM runs WHERE status = 'done'`).Scan(&done, &executions); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT count(*) FROM run_events WHERE status = 'done'`).Scan(&verdicts); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`SELECT coalesce(sum(attempt), 0) FROM river_job`).Scan(&attempts); err != nil {
		t.Fatal(err)
	}
	if done != len(runs) || verdicts != len(runs) || executions != len(runs) || attempts != len(runs) {
		t.Fatalf("%d runs: %d done, %d verdicts, %d executions, %d job attempts", len(runs), done, verdicts, executions, attempts)
	}
}
