package main

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// smallDisk mounts a tmpfs of size bytes and returns its path. It needs
// root; elsewhere the test is skipped (CI runs as root).
func smallDisk(t *testing.T, size int) string {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("mounting a small disk needs root")
	}
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", fmt.Sprintf("size=%d,mode=0700", size), "tmpfs", dir).CombinedOutput(); err != nil {
		t.Fatalf("mount a %d-byte tmpfs: %v: %s", size, err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dir).Run() })
	return dir
}

// fillUntilRefused saves 256 KiB files in new workspaces until a save is
// refused, and returns the refusal and every acknowledged save.
func fillUntilRefused(t *testing.T, c *client) (refused response, acked map[string]fileJSON) {
	t.Helper()
	acked = map[string]fileJSON{}
	big := strings.Repeat("// filling the disk\n", 250<<10/20)
	for i := 0; i < 200; i++ {
		r := c.do("POST", "/api/workspaces", map[string]string{"dossier": flagship})
		if r.status != http.StatusCreated {
			return r, acked
		}
		ws := decode[workspaceJSON](t, r)
		for _, f := range ws.Files {
			if f.ReadOnly {
				continue
			}
			content := fmt.Sprintf("// %s %d\n%s", ws.ID, i, big)
			r := c.do("PUT", "/api/workspaces/"+ws.ID+"/files/"+f.Path, map[string]any{"content": content, "base_version": f.Version})
			if r.status != http.StatusOK {
				return r, acked
			}
			acked["/api/workspaces/"+ws.ID+"/files/"+f.Path] = decode[fileJSON](t, r)
			break
		}
	}
	t.Fatal("200 workspaces of 256 KiB files fit on a 24 MiB disk")
	return response{}, nil
}

// checkNothingLost reads back every acknowledged save.
func checkNothingLost(t *testing.T, c *client, acked map[string]fileJSON) {
	t.Helper()
	for path, want := range acked {
		got := decode[fileJSON](t, c.do("GET", path, nil).want(t, http.StatusOK))
		if got.Version != want.Version || got.Content != want.Content {
			t.Fatalf("%s: version %d, want the acknowledged %d", path, got.Version, want.Version)
		}
	}
}

func TestNearlyFullDiskRefusesChangesAndLosesNothing(t *testing.T) {
	disk := smallDisk(t, 24<<20)
	quotas := []string{"--data", disk, "--max-workspaces", "1000"}

	// Below --min-free-disk, every change is refused before it is written.
	srv := startWithoutEngine(t, append(quotas, "--min-free-disk", fmt.Sprint(12<<20))...)
	c := newClient(t, srv.URL)
	refused, acked := fillUntilRefused(t, c)
	problemOf(t, refused, http.StatusInsufficientStorage, "insufficient_storage")
	if len(acked) == 0 {
		t.Fatal("the disk was refused before anything was saved")
	}
	checkNothingLost(t, c, acked)
	c.do("GET", "/api/workspaces", nil).want(t, http.StatusOK)
	if code := srv.stop(); code != exitOK {
		t.Fatalf("stop: exit %d", code)
	}

	// Without the guard, SQLite itself finds the disk full: still a 507,
	// the transaction rolled back whole.
	srv = startWithoutEngine(t, append(quotas, "--min-free-disk", "0")...)
	c.base = srv.URL
	refused, more := fillUntilRefused(t, c)
	problemOf(t, refused, http.StatusInsufficientStorage, "insufficient_storage")
	for k, v := range more {
		acked[k] = v
	}
	checkNothingLost(t, c, acked)
}
