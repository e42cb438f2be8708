package workspace

import "context"

// Snapshot is what a workspace page follows live: its files' versions and
// its latest runs. It changes with every save, reset, push and run.
type Snapshot struct {
	// Files are the workspace's files, without their content.
	Files []FileInfo `json:"files"`
	// Runs are the workspace's latest runs, newest first.
	Runs []RunSummary `json:"runs"`
}

// Snapshot returns the live state of one of learner's workspaces.
func (s *Service) Snapshot(ctx context.Context, learner, wsID string) (Snapshot, error) {
	ws, d, err := s.workspace(ctx, learner, wsID)
	if err != nil {
		return Snapshot{}, err
	}
	var snap Snapshot
	if snap.Files, err = s.files(ctx, d, ws.ID); err != nil {
		return Snapshot{}, err
	}
	if snap.Runs, err = s.recentRuns(ctx, ws.ID); err != nil {
		return Snapshot{}, err
	}
	return snap, nil
}

// WatchWorkspace returns a channel that receives a value whenever the
// workspace's snapshot may have changed, and a function to stop watching.
func (s *Service) WatchWorkspace(wsID string) (<-chan struct{}, func()) {
	return s.notify.subscribe(wsID)
}
