package instructor

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/racecase/racecase/challenges"
)

// PollInterval is how often Watch looks for changed files.
const PollInterval = time.Second

// Watch reloads every dossier of the folder whose files (or hidden suite)
// changed, every interval, until ctx ends. New folders appear and deleted
// ones disappear. Without a folder it returns at once.
func (d *Desk) Watch(ctx context.Context, interval time.Duration) {
	if d.cfg.Dirs.Challenges == "" {
		return
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			d.scan()
		}
	}
}

// scan reloads the folder's dossiers that changed since the last scan and
// withdraws those that are gone.
func (d *Desk) scan() {
	slugs, err := challenges.Slugs(os.DirFS(d.cfg.Dirs.Challenges))
	if err != nil {
		d.log.Warn("cannot list the dossier folder", "folder", d.cfg.Dirs.Challenges, "error", err.Error())
		return
	}
	present := map[string]bool{}
	for _, slug := range slugs {
		if d.builtIn[slug] {
			d.clash(slug)
			continue
		}
		present[slug] = true
		print := d.fingerprint(slug)
		d.mu.Lock()
		e := d.entries[slug]
		unchanged := e != nil && e.print == print
		d.mu.Unlock()
		if !unchanged {
			d.reload(slug, print)
		}
	}
	d.mu.Lock()
	var gone []string
	for slug, e := range d.entries {
		if e.info.Source != BuiltIn && !present[slug] {
			gone = append(gone, slug)
			delete(d.entries, slug)
		}
	}
	d.mu.Unlock()
	for _, slug := range gone {
		d.cfg.Service.Withdraw(slug)
		d.log.Info("dossier removed", "slug", slug)
	}
}

// fingerprint sums the names, sizes and modification times of the files of
// a dossier's folder and of its hidden suite's folder.
func (d *Desk) fingerprint(slug string) string {
	h := sha256.New()
	for _, root := range []string{d.cfg.Dirs.Challenges, d.cfg.Dirs.HiddenTests} {
		dir := filepath.Join(root, slug)
		_ = filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return nil // a folder that vanished mid-walk shows in the next scan
			}
			if info, err := e.Info(); err == nil {
				fmt.Fprintf(h, "%s\x00%d\x00%d\x00%d\n", p, info.Size(), info.ModTime().UnixNano(), info.Mode())
			}
			return nil
		})
	}
	return hex.EncodeToString(h.Sum(nil))
}
