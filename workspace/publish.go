package workspace

import (
	"io/fs"
	"maps"
	"slices"
	"time"

	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/runner"
)

// Publish serves d, reading its original repository from content; a dossier
// already served under d's slug is replaced. Workspaces keep the files they
// were created with; new workspaces get d's.
func (s *Service) Publish(d *challenges.Dossier, content fs.FS) error {
	loaded, err := loadDossier(content, d)
	if err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	next := maps.Clone(s.dossiers)
	next[d.Slug] = loaded
	s.replace(next)
	return nil
}

// Withdraw stops serving the dossier with the given slug, if it is served.
// Its workspaces answer EUNAVAILABLE until it is published again.
func (s *Service) Withdraw(slug string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.dossiers[slug]; !ok {
		return
	}
	next := maps.Clone(s.dossiers)
	delete(next, slug)
	s.replace(next)
}

// Served reports whether a dossier with the given slug is served.
func (s *Service) Served(slug string) bool {
	_, ok := s.lookup(slug)
	return ok
}

// replace installs a new set of dossiers, their search index and the run
// timeout they imply. s.mu must be held.
func (s *Service) replace(next map[string]*dossier) {
	s.dossiers = next
	s.order = slices.SortedFunc(maps.Keys(next), func(a, b string) int {
		return challenges.CompareApproachability(next[a].Dossier, next[b].Dossier)
	})
	indexed := make([]*challenges.Dossier, 0, len(next))
	for _, slug := range s.order {
		indexed = append(indexed, next[slug].Dossier)
	}
	s.index = challenges.NewIndex(indexed)
	longest := runner.DefaultLimits().Wall
	for _, d := range next {
		for _, suite := range []runner.Suite{runner.SuiteVisible, runner.SuiteHidden} {
			longest = max(longest, d.Limits.RunnerLimits(suite).WithDefaults().Wall)
		}
	}
	s.timeout.Store(int64(longest + s.cfg.RunGrace))
}

// lookup returns the served dossier with the given slug.
func (s *Service) lookup(slug string) (*dossier, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	d, ok := s.dossiers[slug]
	return d, ok
}

// served returns every served dossier, the most approachable first.
func (s *Service) served() []*dossier {
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]*dossier, 0, len(s.order))
	for _, slug := range s.order {
		out = append(out, s.dossiers[slug])
	}
	return out
}

// timeoutOf is the most a run of kind in dossier d may take: its wall-clock
// limit and the run grace.
func (s *Service) timeoutOf(d *dossier, kind string) time.Duration {
	suite := runner.SuiteVisible
	if kind == KindSubmit {
		suite = runner.SuiteHidden
	}
	return d.Limits.RunnerLimits(suite).WithDefaults().Wall + s.cfg.RunGrace
}

// runTimeout is the most any run may take now: the longest timeoutOf.
func (s *Service) runTimeout() time.Duration { return time.Duration(s.timeout.Load()) }
