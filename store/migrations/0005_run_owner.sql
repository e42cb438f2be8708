-- A run remembers which owner (see owners) executes it, so that the live
-- owners put it back in the queue as soon as that owner's heartbeat stops,
-- rather than when River gives up on its job. NULL while no owner has it
-- (queued, done, or claimed before this column existed).
ALTER TABLE runs ADD COLUMN owner_id TEXT;
