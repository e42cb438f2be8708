package instructor

import (
	"os"
	"path/filepath"
	"time"

	"github.com/racecase/racecase/authoring"
	"github.com/racecase/racecase/challenges"
)

// reload lints and loads one dossier of the folder. A version that loads is
// served; one that does not leaves the last good version served, marked
// stale, with the problems of the files on disk.
func (d *Desk) reload(slug, print string) {
	file := filepath.ToSlash(filepath.Join(d.cfg.Dirs.Challenges, slug, challenges.DossierFile))
	fsys := os.DirFS(d.cfg.Dirs.Challenges)
	problems := d.lint(slug, file)
	loaded, err := challenges.Load(fsys, slug)
	if err != nil {
		loaded = nil
	}
	if loaded != nil {
		if err := d.cfg.Service.Publish(loaded, fsys); err != nil {
			problems = append(problems, challenges.Problem{File: file, Message: err.Error(),
				Fix: "make repo/ readable"})
			loaded = nil
		}
	}

	d.mu.Lock()
	defer d.mu.Unlock()
	e := d.entries[slug]
	if e == nil {
		e = &entry{info: Dossier{Slug: slug, Source: d.cfg.Dirs.Challenges, Validation: neverValidated()}}
		d.entries[slug] = e
	}
	e.print = print
	e.info.Problems = problems
	e.info.CheckedAt = time.Now().UTC()
	if loaded != nil {
		e.dossier, e.fsys = loaded, fsys
		d.log.Info("dossier loaded", "slug", slug, "problems", len(problems))
	} else {
		d.log.Warn("dossier does not load; the last good version, if any, is still served", "slug", slug, "problems", len(problems))
	}
	e.info.Stale = loaded == nil && e.dossier != nil
	e.info.Served = e.dossier != nil
	e.info.Title, e.info.Preview = "", ""
	if e.dossier != nil {
		e.info.Title, e.info.Preview = e.dossier.Title, preview(slug)
	}
}

// lint returns the lint problems of one dossier of the folder.
func (d *Desk) lint(slug, file string) challenges.Problems {
	report, err := authoring.Lint(d.cfg.Dirs, []string{slug})
	if err != nil {
		return challenges.Problems{{File: file, Message: err.Error()}}
	}
	if report.Problems == nil {
		return challenges.Problems{}
	}
	return report.Problems
}

// clash marks a built-in dossier whose slug a folder of the dossier folder
// also has: that folder is not served.
func (d *Desk) clash(slug string) {
	file := filepath.ToSlash(filepath.Join(d.cfg.Dirs.Challenges, slug, challenges.DossierFile))
	d.mu.Lock()
	defer d.mu.Unlock()
	d.entries[slug].info.Problems = challenges.Problems{{File: file, Field: "slug",
		Message: "this folder has the slug of the built-in dossier " + slug + ", so it is not served",
		Fix:     "rename the folder and its slug"}}
}
