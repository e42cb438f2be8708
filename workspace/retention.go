package workspace

import (
	"context"
	"slices"
	"time"

	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
)

// Pruning batches: how many workspaces one query lists, and how many one
// transaction prunes (a few milliseconds of the database's one connection).
const (
	pruneBatch   = 500
	pruneTxBatch = 10
)

// PruneRuns deletes the finished runs of every workspace beyond its newest
// RunsKept, with their snapshots and status events, and reports how many
// it deleted. Runs queued or running are never pruned. Workspaces are
// pruned pruneTxBatch to a transaction, so that pruning never holds the
// database's one connection for long.
func (s *Service) PruneRuns(ctx context.Context) (int64, error) {
	keep := int64(s.cfg.RunsKept)
	var total int64
	after := ""
	for {
		ids, err := s.store.ListWorkspacesOverRuns(ctx, db.ListWorkspacesOverRunsParams{After: after, Keep: keep, Batch: pruneBatch})
		if err != nil {
			return total, wrap(err, "list workspaces to prune")
		}
		for chunk := range slices.Chunk(ids, pruneTxBatch) {
			err := s.store.InTx(ctx, func(q store.Tx) error {
				for _, id := range chunk {
					n, err := q.PruneWorkspaceRuns(ctx, db.PruneWorkspaceRunsParams{WorkspaceID: id, Keep: keep})
					if err != nil {
						return wrap(err, "prune the runs of "+id)
					}
					total += n
				}
				return nil
			})
			if err != nil {
				return total, err
			}
		}
		if len(ids) < pruneBatch {
			return total, nil
		}
		after = ids[len(ids)-1]
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
