package workspace

import (
	"context"
	"time"

	"github.com/racecase/racecase/store/sqlite/db"
)

// pruneBatch bounds the runs one statement deletes, so that pruning never
// holds the database's one connection for long.
const pruneBatch = 500

// PruneRuns deletes the finished runs of every workspace beyond its newest
// RunsKept, with their snapshots and status events, and reports how many
// it deleted. Runs queued or running are never pruned.
func (s *Service) PruneRuns(ctx context.Context) (int64, error) {
	var total int64
	for {
		n, err := s.store.PruneRuns(ctx, db.PruneRunsParams{Keep: int64(s.cfg.RunsKept), Batch: pruneBatch})
		if err != nil {
			return total, wrap(err, "prune runs")
		}
		total += n
		if n < pruneBatch {
			return total, nil
		}
	}
}

// startPruning starts pruning runs every PruneEvery in the background
// until stopPruning.
func (s *Service) startPruning() {
	s.pruner = every(s.cfg.PruneEvery, func(ctx context.Context) {
		start := time.Now()
		n, err := s.PruneRuns(ctx)
		switch {
		case err != nil && ctx.Err() == nil:
			s.log.Error("pruning old runs failed", "error", err)
		case n > 0:
			s.log.Info("pruned old runs", "runs", n, "duration_ms", time.Since(start).Milliseconds())
		}
	})
}

// stopPruning stops the background pruning and waits for it to end.
func (s *Service) stopPruning() {
	s.pruner.end()
	s.pruner = nil
}
