-- The owner executing a run (store/migrations/0005 on PostgreSQL): the same
-- column, last in the table as there.
ALTER TABLE runs ADD COLUMN owner_id TEXT;
