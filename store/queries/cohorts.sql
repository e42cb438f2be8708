-- name: InsertCohort :exec
INSERT INTO cohorts (id, name, join_code, opens_at, closes_at, created_by, created_at)
VALUES (sqlc.arg(id), sqlc.arg(name), sqlc.arg(join_code), sqlc.narg(opens_at), sqlc.narg(closes_at),
        sqlc.arg(created_by), sqlc.arg(created_at));

-- name: InsertCohortDossier :exec
INSERT INTO cohort_dossiers (cohort_id, dossier, position)
VALUES (sqlc.arg(cohort_id), sqlc.arg(dossier), sqlc.arg(position));

-- name: ListCohorts :many
-- ListCohorts lists every cohort, newest first, with how many learners joined it.
SELECT c.id, c.name, c.join_code, c.opens_at, c.closes_at, c.created_by, c.created_at,
       (SELECT count(*) FROM cohort_members m WHERE m.cohort_id = c.id) AS members
FROM cohorts c
ORDER BY c.created_at DESC, c.id;

-- name: GetCohort :one
SELECT * FROM cohorts WHERE id = sqlc.arg(id);

-- name: GetCohortByCode :one
SELECT * FROM cohorts WHERE join_code = sqlc.arg(join_code);

-- name: ListCohortDossiers :many
SELECT dossier FROM cohort_dossiers WHERE cohort_id = sqlc.arg(cohort_id) ORDER BY position;

-- name: JoinCohort :exec
-- JoinCohort adds a learner to a cohort; joining again changes the display name.
INSERT INTO cohort_members (cohort_id, learner_id, display_name, joined_at)
VALUES (sqlc.arg(cohort_id), sqlc.arg(learner_id), sqlc.arg(display_name), sqlc.arg(joined_at))
ON CONFLICT (cohort_id, learner_id) DO UPDATE SET display_name = excluded.display_name;

-- name: ListCohortMembers :many
SELECT learner_id, display_name, joined_at FROM cohort_members
WHERE cohort_id = sqlc.arg(cohort_id) ORDER BY joined_at, learner_id;

-- name: ListLearnerCohorts :many
-- ListLearnerCohorts lists the cohorts a learner joined, with the name they gave.
SELECT c.id, c.name, m.display_name FROM cohort_members m JOIN cohorts c ON c.id = m.cohort_id
WHERE m.learner_id = sqlc.arg(learner_id) ORDER BY m.joined_at, c.id;

-- name: LearnerExists :one
SELECT count(*) FROM learners WHERE id = sqlc.arg(id);

-- name: GetWorkspaceByID :one
-- GetWorkspaceByID reads any learner's workspace, for the instructor's read-only view.
SELECT * FROM workspaces WHERE id = sqlc.arg(id);

-- name: InsertPreviewLearner :exec
INSERT INTO preview_learners (learner_id, created_at) VALUES (sqlc.arg(learner_id), sqlc.arg(created_at));

-- name: IsPreviewLearner :one
SELECT count(*) FROM preview_learners WHERE learner_id = sqlc.arg(learner_id);

-- name: DeletePreviewLearner :execrows
-- DeletePreviewLearner deletes a preview learner with everything it made; a
-- learner who is not a preview learner is left alone.
DELETE FROM learners WHERE id = sqlc.arg(learner_id)
AND id IN (SELECT learner_id FROM preview_learners);

-- name: SetHypothesisPick :exec
INSERT INTO hypothesis_picks (workspace_id, hypothesis, picked_at)
VALUES (sqlc.arg(workspace_id), sqlc.arg(hypothesis), sqlc.arg(picked_at))
ON CONFLICT (workspace_id) DO UPDATE SET hypothesis = excluded.hypothesis, picked_at = excluded.picked_at;

-- name: GetHypothesisPick :one
SELECT hypothesis FROM hypothesis_picks WHERE workspace_id = sqlc.arg(workspace_id);

-- name: InsertRunOutcome :exec
INSERT INTO run_outcomes (run_id, workspace_id, kind, verdict, failed_tests, passed_tests, finished_at)
VALUES (sqlc.arg(run_id), sqlc.arg(workspace_id), sqlc.arg(kind), sqlc.arg(verdict),
        sqlc.arg(failed_tests), sqlc.arg(passed_tests), sqlc.arg(finished_at));
