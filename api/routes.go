package api

import (
	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/racecase/racecase/gitserve"
)

// addRoutes lists every route of the API. openapi.json documents each one,
// and a test keeps the two in step.
func addRoutes(r *gin.Engine, cfg Config) {
	svc, key := cfg.Service, cfg.SessionKey

	r.GET("/healthz", handleHealthz())
	r.GET("/readyz", handleReadyz(svc))
	r.GET("/metrics", gin.WrapH(promhttp.HandlerFor(cfg.Registry, promhttp.HandlerOpts{})))

	api := r.Group("/api")
	api.GET("/openapi.json", handleOpenAPI())

	api.GET("/dossiers", handleListDossiers(svc))
	api.GET("/dossiers/:slug", handleGetDossier(svc))

	learners := newLearnerLimiter(cfg.NewLearnersPerMinute)
	api.POST("/workspaces", handleCreateWorkspace(svc, key, learners))
	api.GET("/workspaces", handleListWorkspaces(svc))
	api.GET("/workspaces/:id", handleGetWorkspace(svc))
	api.GET("/workspaces/:id/files/*path", handleReadFile(svc))
	api.PUT("/workspaces/:id/files/*path", handleSaveFile(svc))
	api.POST("/workspaces/:id/reset", handleResetWorkspace(svc))
	api.POST("/workspaces/:id/reset/*path", handleResetFile(svc))
	api.GET("/workspaces/:id/diff", handleDiff(svc))
	api.GET("/workspaces/:id/hints", handleListHints(svc))
	api.POST("/workspaces/:id/hints", handleRevealHint(svc))
	api.GET("/workspaces/:id/progress", handleProgress(svc))
	api.PUT("/workspaces/:id/hypothesis", handlePickHypothesis(svc))
	api.POST("/workspaces/:id/runs", handleStartRun(svc))
	api.GET("/workspaces/:id/events", handleWorkspaceEvents(svc, cfg.Done))
	api.GET("/workspaces/:id/git", handleGitAccess(svc))
	api.POST("/workspaces/:id/git/token", handleRotateGitToken(svc))

	api.GET("/playbooks", handleListPlaybooks(svc))
	api.GET("/playbooks/:slug", handleGetPlaybook(svc))

	api.GET("/runs/:id", handleGetRun(svc))
	api.GET("/runs/:id/events", handleRunEvents(svc, cfg.Done))

	// git's smart HTTP protocol: each workspace is a repository.
	git := gitserve.New(gitserve.Config{Service: svc, Logger: cfg.Logger, Done: cfg.Done})
	r.GET("/git/:repo/info/refs", gitRoute(git.InfoRefs))
	r.POST("/git/:repo/git-upload-pack", gitRoute(git.UploadPack))
	r.POST("/git/:repo/git-receive-pack", gitRoute(git.ReceivePack))

	// Cohorts: a learner joins with the link's code and a display name.
	api.GET("/cohorts/join/:code", handleInvitation(svc))
	api.POST("/cohorts/join/:code", handleJoin(svc, key, learners))
	api.POST("/preview/leave", handleLeavePreview(svc, key))

	teacher := api.Group("/instructor", requireInstructor(instructorTokens(cfg)))
	teacher.GET("/dossiers", handleInstructorDossiers(cfg.Instructor))
	teacher.POST("/dossiers/:slug/validate", handleStartValidation(cfg.Instructor))
	teacher.GET("/dossiers/:slug/validate", handleGetValidation(cfg.Instructor))
	teacher.GET("/dossiers/:slug/validations", handleValidationHistory(cfg.Instructor))
	teacher.GET("/cohorts", handleListCohorts(svc))
	teacher.POST("/cohorts", handleCreateCohort(svc))
	teacher.GET("/cohorts/:id", handleGetClass(svc))
	teacher.GET("/cohorts/:id/insights", handleCohortInsights(svc))
	teacher.GET("/insights", handleInsights(svc))
	teacher.GET("/workspaces/:id", handleInspectWorkspace(svc))
	teacher.POST("/previews", handleStartPreview(svc, key))
}
