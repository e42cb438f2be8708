// Package instructor is the back end of racecase's instructor page: it serves
// dossiers kept in a folder besides the built-in ones, reloads each one when
// its files change (keeping the last good version when an edit breaks it),
// keeps every dossier's lint problems and its validations (in the
// database, through History).
package instructor

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/racecase/racecase/authoring"
	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/runner"
)

// BuiltIn is the Source of the dossiers built into racecase.
const BuiltIn = "built-in"

// Publisher serves dossiers to learners; *workspace.Service is one.
type Publisher interface {
	// Publish serves d, reading its repository from content.
	Publish(d *challenges.Dossier, content fs.FS) error
	// Withdraw stops serving the dossier with the given slug.
	Withdraw(slug string)
}

// Config is what a Desk needs.
type Config struct {
	// Service serves the dossiers; the built-in ones must already be published.
	Service Publisher
	// BuiltIn are the built-in dossiers being served.
	BuiltIn []*challenges.Dossier
	// Dirs is the dossier folder on disk; an empty Dirs.Challenges means none.
	Dirs authoring.Dirs
	// Runner proves dossiers on request; nil means validation is unavailable.
	Runner runner.Runner
	// History keeps every validation; required with a Runner.
	History History
	// Image is the runner image.
	Image string
	// Runs is how many times validation runs the reference fix; 0 means 3.
	Runs int
	// Logger receives reloads and broken edits; nil means slog.Default().
	Logger *slog.Logger
}

// Dossier is one dossier as the instructor page lists it.
type Dossier struct {
	// Slug is the dossier's slug (its folder name).
	Slug string `json:"slug"`
	// Title is the title of the version served; empty when none is.
	Title string `json:"title,omitempty"`
	// Source is BuiltIn or the folder the dossier is read from.
	Source string `json:"source"`
	// Served is whether learners can open it; Preview is then its learner page.
	Served bool `json:"served"`
	// Preview is the path of the learner's page of the dossier.
	Preview string `json:"preview,omitempty"`
	// Stale is true when the files on disk are broken and the last good
	// version is still served.
	Stale bool `json:"stale"`
	// Problems are the lint problems of the files on disk.
	Problems challenges.Problems `json:"problems"`
	// CheckedAt is when the files were last linted (or loaded, for built-ins).
	CheckedAt time.Time `json:"checked_at"`
	// Validation is the newest validation, running or not.
	Validation Validation `json:"validation"`
}

// entry is the desk's state of one dossier.
type entry struct {
	info    Dossier
	dossier *challenges.Dossier // the version served; nil when none
	fsys    fs.FS               // where dossier's files are read from
	print   string              // fingerprint of the files last loaded
}

// Desk keeps the instructor's view of every dossier. It is safe for
// concurrent use.
type Desk struct {
	cfg     Config
	ctx     context.Context // bounds validations
	log     *slog.Logger
	suite   func(slug string) (map[string][]byte, error)
	builtIn map[string]bool
	mu      sync.Mutex
	entries map[string]*entry
	running sync.WaitGroup
}

// New returns a desk over cfg, loads the dossier folder, if any, once (a
// slug in the folder that is also a built-in dossier's is an error) and
// shows each dossier's newest validation from the history, marking failed
// those a stopped racecase left running. ctx bounds the validations the
// desk starts.
func New(ctx context.Context, cfg Config) (*Desk, error) {
	if cfg.Runs <= 0 {
		cfg.Runs = 3
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Runner != nil && cfg.History == nil {
		return nil, fmt.Errorf("instructor: validation needs a history to keep it in")
	}
	d := &Desk{cfg: cfg, ctx: ctx, log: cfg.Logger, builtIn: map[string]bool{}, entries: map[string]*entry{},
		suite: Suites(cfg.BuiltIn, cfg.Dirs)}
	now := time.Now().UTC()
	for _, b := range cfg.BuiltIn {
		d.builtIn[b.Slug] = true
		d.entries[b.Slug] = &entry{dossier: b, fsys: challenges.FS, info: Dossier{
			Slug: b.Slug, Title: b.Title, Source: BuiltIn, Served: true, Preview: preview(b.Slug),
			Problems: challenges.Problems{}, CheckedAt: now, Validation: neverValidated(),
		}}
	}
	if err := d.loadFolder(); err != nil {
		return nil, err
	}
	if cfg.History != nil {
		if err := d.restoreHistory(ctx); err != nil {
			return nil, err
		}
	}
	return d, nil
}

// loadFolder loads the dossier folder, if any, once. A slug in the folder
// that is also a built-in dossier's is an error.
func (d *Desk) loadFolder() error {
	cfg := d.cfg
	if cfg.Dirs.Challenges == "" {
		return nil
	}
	if info, err := os.Stat(cfg.Dirs.Challenges); err != nil || !info.IsDir() {
		return fmt.Errorf("--challenges %s is not a folder", cfg.Dirs.Challenges)
	}
	slugs, err := challenges.Slugs(os.DirFS(cfg.Dirs.Challenges))
	if err != nil {
		return err
	}
	for _, slug := range slugs {
		if d.builtIn[slug] {
			return fmt.Errorf("dossier %s has the slug of the built-in dossier %q: rename its folder and slug",
				filepath.Join(cfg.Dirs.Challenges, slug), slug)
		}
	}
	d.scan()
	return nil
}

// List returns every dossier, sorted by slug.
func (d *Desk) List() []Dossier {
	d.mu.Lock()
	defer d.mu.Unlock()
	out := make([]Dossier, 0, len(d.entries))
	for _, e := range d.entries {
		out = append(out, e.info)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Slug < out[j].Slug })
	return out
}

// preview is the learner's page of a dossier.
func preview(slug string) string { return "/dossiers/" + slug }
