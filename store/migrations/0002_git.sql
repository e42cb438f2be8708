-- Git access to workspaces. Each workspace is a git repository whose objects
-- live here, beside its files, so that a browser save or a git push changes
-- the files, the objects and the branch in one transaction.

-- git_head is the commit the workspace's only branch, main, points at; its
-- tree always holds exactly the workspace's files. NULL until the repository
-- is first needed (workspaces created before git access existed).
ALTER TABLE workspaces ADD COLUMN git_head TEXT;

-- git_token_generation numbers the workspace's git token: the token is
-- derived from it with a server key, and rotating it bumps the number, so no
-- token is stored and an old one stops working at once.
ALTER TABLE workspaces ADD COLUMN git_token_generation INTEGER NOT NULL DEFAULT 1;

-- git_objects holds every commit, tree and blob reachable from a workspace's
-- main branch, zlib-compressed as git stores loose objects. Objects are only
-- ever added: every stored commit is an ancestor of (or is) git_head.
CREATE TABLE git_objects (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    hash         TEXT NOT NULL,
    type         TEXT NOT NULL CHECK (type IN ('commit', 'tree', 'blob')),
    data         BLOB NOT NULL,
    PRIMARY KEY (workspace_id, hash)
) WITHOUT ROWID;

-- file_history gains the cause 'push': the content a git push replaced.
CREATE TABLE file_history_next (
    workspace_id TEXT NOT NULL,
    path         TEXT NOT NULL,
    version      INTEGER NOT NULL,
    content      TEXT NOT NULL,
    cause        TEXT NOT NULL CHECK (cause IN ('save', 'reset', 'push')),
    replaced_at  INTEGER NOT NULL,
    PRIMARY KEY (workspace_id, path, version),
    FOREIGN KEY (workspace_id, path) REFERENCES workspace_files (workspace_id, path) ON DELETE CASCADE
);
INSERT INTO file_history_next (workspace_id, path, version, content, cause, replaced_at)
SELECT workspace_id, path, version, content, cause, replaced_at FROM file_history;
DROP TABLE file_history;
ALTER TABLE file_history_next RENAME TO file_history;
