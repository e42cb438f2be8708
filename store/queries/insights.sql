-- The facts behind a cohort's progress table and the dossier insights. Each
-- query reads the workspaces of one scope: with a cohort id, those its
-- members made for the cohort's dossiers; with '' every workspace but a
-- preview learner's.

-- name: ListScopedWorkspaces :many
SELECT w.id, w.learner_id, w.dossier, w.created_at FROM workspaces w
WHERE (CAST(sqlc.arg(cohort_id) AS TEXT) = '' AND NOT EXISTS (SELECT 1 FROM preview_learners v WHERE v.learner_id = w.learner_id))
   OR EXISTS (SELECT 1 FROM cohort_members m JOIN cohort_dossiers cd ON cd.cohort_id = m.cohort_id
              WHERE m.cohort_id = sqlc.arg(cohort_id) AND m.learner_id = w.learner_id AND cd.dossier = w.dossier)
ORDER BY w.created_at, w.id;

-- name: ListScopedProgress :many
SELECT p.workspace_id, p.step, p.at FROM progress_events p JOIN workspaces w ON w.id = p.workspace_id
WHERE (CAST(sqlc.arg(cohort_id) AS TEXT) = '' AND NOT EXISTS (SELECT 1 FROM preview_learners v WHERE v.learner_id = w.learner_id))
   OR EXISTS (SELECT 1 FROM cohort_members m JOIN cohort_dossiers cd ON cd.cohort_id = m.cohort_id
              WHERE m.cohort_id = sqlc.arg(cohort_id) AND m.learner_id = w.learner_id AND cd.dossier = w.dossier);

-- name: ListScopedHintReveals :many
SELECT h.workspace_id, h.hint, h.revealed_at FROM hint_reveals h JOIN workspaces w ON w.id = h.workspace_id
WHERE (CAST(sqlc.arg(cohort_id) AS TEXT) = '' AND NOT EXISTS (SELECT 1 FROM preview_learners v WHERE v.learner_id = w.learner_id))
   OR EXISTS (SELECT 1 FROM cohort_members m JOIN cohort_dossiers cd ON cd.cohort_id = m.cohort_id
              WHERE m.cohort_id = sqlc.arg(cohort_id) AND m.learner_id = w.learner_id AND cd.dossier = w.dossier);

-- name: ListScopedRunOutcomes :many
SELECT o.run_id, o.workspace_id, o.kind, o.verdict, o.failed_tests, o.passed_tests, o.finished_at
FROM run_outcomes o JOIN workspaces w ON w.id = o.workspace_id
WHERE (CAST(sqlc.arg(cohort_id) AS TEXT) = '' AND NOT EXISTS (SELECT 1 FROM preview_learners v WHERE v.learner_id = w.learner_id))
   OR EXISTS (SELECT 1 FROM cohort_members m JOIN cohort_dossiers cd ON cd.cohort_id = m.cohort_id
              WHERE m.cohort_id = sqlc.arg(cohort_id) AND m.learner_id = w.learner_id AND cd.dossier = w.dossier)
ORDER BY o.finished_at, o.run_id;

-- name: ListScopedHypothesisPicks :many
SELECT p.workspace_id, p.hypothesis FROM hypothesis_picks p JOIN workspaces w ON w.id = p.workspace_id
WHERE (CAST(sqlc.arg(cohort_id) AS TEXT) = '' AND NOT EXISTS (SELECT 1 FROM preview_learners v WHERE v.learner_id = w.learner_id))
   OR EXISTS (SELECT 1 FROM cohort_members m JOIN cohort_dossiers cd ON cd.cohort_id = m.cohort_id
              WHERE m.cohort_id = sqlc.arg(cohort_id) AND m.learner_id = w.learner_id AND cd.dossier = w.dossier);

-- name: ListScopedRunsInFlight :many
SELECT r.workspace_id, r.kind FROM runs r JOIN workspaces w ON w.id = r.workspace_id
WHERE r.status != 'done' AND (
      (CAST(sqlc.arg(cohort_id) AS TEXT) = '' AND NOT EXISTS (SELECT 1 FROM preview_learners v WHERE v.learner_id = w.learner_id))
   OR EXISTS (SELECT 1 FROM cohort_members m JOIN cohort_dossiers cd ON cd.cohort_id = m.cohort_id
              WHERE m.cohort_id = sqlc.arg(cohort_id) AND m.learner_id = w.learner_id AND cd.dossier = w.dossier));
