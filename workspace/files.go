package workspace

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/racecase/racecase/store"
	"github.com/racecase/racecase/store/sqlite/db"
)

// FileInfo describes a workspace file without its content.
type FileInfo struct {
	// Path is the file's path in the repository: relative, slash-separated and clean.
	Path string `json:"path"`
	// Version starts at 1 and grows by one with every save or reset that changes the file.
	Version int64 `json:"version"`
	// Size is the content's length in bytes.
	Size int64 `json:"size"`
	// ReadOnly files cannot be saved.
	ReadOnly bool `json:"readonly"`
	// Changed is whether the content differs from the dossier's original.
	Changed bool `json:"changed"`
	// UpdatedAt is when the content was last written, in UTC.
	UpdatedAt time.Time `json:"updated_at"`
}

// File is a workspace file with its content.
type File struct {
	FileInfo
	// Content is the file's current content.
	Content string `json:"content"`
}

// files lists a workspace's files.
func (s *Service) files(ctx context.Context, d *dossier, wsID string) ([]FileInfo, error) {
	rows, err := s.store.ListFileContents(ctx, wsID)
	if err != nil {
		return nil, wrap(err, "list files")
	}
	out := make([]FileInfo, 0, len(rows))
	for _, r := range rows {
		out = append(out, FileInfo{
			Path: r.Path, Version: r.Version, Size: int64(len(r.Content)), ReadOnly: d.readonly[r.Path],
			Changed: r.Content != d.files[r.Path], UpdatedAt: fromMillis(r.UpdatedAt),
		})
	}
	return out, nil
}

// ReadFile returns one file of learner's workspace.
func (s *Service) ReadFile(ctx context.Context, learner, wsID, path string) (File, error) {
	path, err := CleanPath(path)
	if err != nil {
		return File{}, err
	}
	_, d, err := s.workspace(ctx, learner, wsID)
	if err != nil {
		return File{}, err
	}
	if err := d.repoFile(path); err != nil {
		return File{}, err
	}
	return s.readFile(ctx, s.store, d, wsID, path)
}

// readFile reads a file that must exist.
func (s *Service) readFile(ctx context.Context, q store.Queries, d *dossier, wsID, path string) (File, error) {
	row, err := q.GetFile(ctx, db.GetFileParams{WorkspaceID: wsID, Path: path})
	if errors.Is(err, sql.ErrNoRows) {
		return File{}, Errorf(ENOTFOUND, "There is no file %q in this workspace.", path)
	}
	if err != nil {
		return File{}, wrap(err, "read file")
	}
	return File{
		FileInfo: FileInfo{Path: path, Version: row.Version, Size: row.Size, ReadOnly: d.readonly[path],
			Changed: row.Content != d.files[path], UpdatedAt: fromMillis(row.UpdatedAt)},
		Content: row.Content,
	}, nil
}

// SaveFile replaces a file's content, provided the file is still at
// baseVersion. When another save got there first it returns ECONFLICT with
// the current file in the error's data ("current"), and changes nothing;
// a save whose content equals the current content succeeds either way, so a
// retried request is harmless. Every refused save leaves the stored file as
// it was. A save that changes the file is also a commit on main.
func (s *Service) SaveFile(ctx context.Context, learner, wsID, path, content string, baseVersion int64) (File, error) {
	path, err := CleanPath(path)
	if err != nil {
		return File{}, err
	}
	if err := CheckContent(path, content); err != nil {
		return File{}, err
	}
	var saved File
	err = s.store.InTx(ctx, func(q store.Tx) error {
		ws, d, err := s.workspaceTx(ctx, q, learner, wsID)
		if err != nil {
			return err
		}
		if err := d.writable(path); err != nil {
			return err
		}
		current, err := s.readFile(ctx, q, d, wsID, path)
		if err != nil {
			return err
		}
		if current.Content == content {
			saved = current
			return nil
		}
		if current.Version != baseVersion {
			return &Error{Code: ECONFLICT,
				Message: "The file " + quote(path) + " changed since you loaded it (another tab or device saved it); your content was not saved. Merge with the current version and save again.",
				Data:    map[string]any{"current": current}}
		}
		if err := s.checkWorkspaceSize(ctx, q, wsID, path, len(content)); err != nil {
			return err
		}
		head, err := s.gitHead(ctx, q, ws, d)
		if err != nil {
			return err
		}
		saved, err = s.write(ctx, q, d, wsID, current, content, "save")
		if err != nil {
			return err
		}
		if err := s.commitFiles(ctx, q, wsID, head, fmt.Sprintf("Save %s (version %d)\n\nSaved in the browser.\n", path, saved.Version)); err != nil {
			return err
		}
		if saved.Changed {
			return s.reach(ctx, q, wsID, StepEdited, "")
		}
		return nil
	})
	if err == nil {
		s.publish(ctx, wsID)
	}
	return saved, err
}

// checkWorkspaceSize refuses a write that would make the workspace larger
// than MaxWorkspaceBytes.
func (s *Service) checkWorkspaceSize(ctx context.Context, q store.Queries, wsID, path string, size int) error {
	others, err := q.WorkspaceSizeWithout(ctx, db.WorkspaceSizeWithoutParams{WorkspaceID: wsID, Path: path})
	if err != nil {
		return wrap(err, "measure workspace")
	}
	if total := others + int64(size); total > MaxWorkspaceBytes {
		return &Error{Code: ETOOLARGE,
			Message: "Saving " + quote(path) + " would make the workspace " + FormatSize(total) + "; a workspace may hold at most " + FormatSize(MaxWorkspaceBytes) + ".",
			Data:    map[string]any{"limit_bytes": MaxWorkspaceBytes, "size_bytes": total}}
	}
	return nil
}

// write stores content as the next version of current, keeping the replaced
// content in the history.
func (s *Service) write(ctx context.Context, q store.Queries, d *dossier, wsID string, current File, content, cause string) (File, error) {
	now := s.now()
	version, err := q.WriteFileIfVersion(ctx, db.WriteFileIfVersionParams{
		Content: content, Size: int64(len(content)), UpdatedAt: millis(now),
		WorkspaceID: wsID, Path: current.Path, Version: current.Version,
	})
	if err != nil {
		return File{}, wrap(err, "write "+current.Path)
	}
	if err := q.InsertFileHistory(ctx, db.InsertFileHistoryParams{
		WorkspaceID: wsID, Path: current.Path, Version: current.Version, Content: current.Content,
		Cause: cause, ReplacedAt: millis(now),
	}); err != nil {
		return File{}, wrap(err, "keep history of "+current.Path)
	}
	if err := q.PruneFileHistory(ctx, db.PruneFileHistoryParams{
		WorkspaceID: wsID, Path: current.Path, MaxVersions: int64(s.cfg.HistoryVersions), MaxBytes: s.cfg.HistoryBytes,
	}); err != nil {
		return File{}, wrap(err, "prune history of "+current.Path)
	}
	return File{
		FileInfo: FileInfo{Path: current.Path, Version: version, Size: int64(len(content)), ReadOnly: d.readonly[current.Path],
			Changed: content != d.files[current.Path], UpdatedAt: fromMillis(millis(now))},
		Content: content,
	}, nil
}

// ResetFile puts one file back to the dossier's original, as a new version
// and a commit on main.
func (s *Service) ResetFile(ctx context.Context, learner, wsID, path string) (File, error) {
	path, err := CleanPath(path)
	if err != nil {
		return File{}, err
	}
	var out File
	err = s.store.InTx(ctx, func(q store.Tx) error {
		ws, d, err := s.workspaceTx(ctx, q, learner, wsID)
		if err != nil {
			return err
		}
		if err := d.repoFile(path); err != nil {
			return err
		}
		head, err := s.gitHead(ctx, q, ws, d)
		if err != nil {
			return err
		}
		var wrote bool
		out, wrote, err = s.reset(ctx, q, d, wsID, path)
		if err != nil || !wrote {
			return err
		}
		return s.commitFiles(ctx, q, wsID, head, fmt.Sprintf("Reset %s to the dossier's original (version %d)\n\nReset in the browser.\n", path, out.Version))
	})
	if err == nil {
		s.publish(ctx, wsID)
	}
	return out, err
}

// ResetAll puts every file back to the dossier's original, in one commit on
// main when any file changed.
func (s *Service) ResetAll(ctx context.Context, learner, wsID string) ([]FileInfo, error) {
	var out []FileInfo
	err := s.store.InTx(ctx, func(q store.Tx) error {
		ws, d, err := s.workspaceTx(ctx, q, learner, wsID)
		if err != nil {
			return err
		}
		head, err := s.gitHead(ctx, q, ws, d)
		if err != nil {
			return err
		}
		changed := false
		for _, p := range d.paths {
			f, wrote, err := s.reset(ctx, q, d, wsID, p)
			if err != nil {
				return err
			}
			changed = changed || wrote
			out = append(out, f.FileInfo)
		}
		if !changed {
			return nil
		}
		return s.commitFiles(ctx, q, wsID, head, "Reset every file to the dossier's original\n\nReset in the browser.\n")
	})
	if err == nil {
		s.publish(ctx, wsID)
	}
	return out, err
}

// reset writes the original content of path unless the file already holds
// it; wrote says whether it did.
func (s *Service) reset(ctx context.Context, q store.Queries, d *dossier, wsID, path string) (f File, wrote bool, err error) {
	current, err := s.readFile(ctx, q, d, wsID, path)
	if err != nil || !current.Changed {
		return current, false, err
	}
	f, err = s.write(ctx, q, d, wsID, current, d.files[path], "reset")
	return f, err == nil, err
}
