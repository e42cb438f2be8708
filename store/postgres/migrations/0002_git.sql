-- Git access to workspaces (store/migrations/0002 on PostgreSQL): each
-- workspace is a git repository whose objects live beside its files.

-- git_head is the commit the workspace's only branch, main, points at; NULL
-- until the repository is first needed.
ALTER TABLE workspaces ADD COLUMN git_head TEXT;

-- git_token_generation numbers the workspace's git token; rotating it bumps
-- the number, so an old token stops working at once.
ALTER TABLE workspaces ADD COLUMN git_token_generation BIGINT NOT NULL DEFAULT 1;

-- git_objects holds every commit, tree and blob reachable from a workspace's
-- main branch, zlib-compressed as git stores loose objects.
CREATE TABLE git_objects (
    workspace_id TEXT NOT NULL REFERENCES workspaces (id) ON DELETE CASCADE,
    hash         TEXT NOT NULL,
    type         TEXT NOT NULL CHECK (type IN ('commit', 'tree', 'blob')),
    data         BYTEA NOT NULL,
    PRIMARY KEY (workspace_id, hash)
);

-- file_history gains the cause 'push': the content a git push replaced.
ALTER TABLE file_history DROP CONSTRAINT file_history_cause_check;
ALTER TABLE file_history ADD CONSTRAINT file_history_cause_check CHECK (cause IN ('save', 'reset', 'push'));
