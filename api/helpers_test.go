package api

import (
	"context"
	"log/slog"
	"testing"

	"github.com/gin-gonic/gin"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/racecase/racecase/challenges"
	hiddentests "github.com/racecase/racecase/hidden_tests"
	"github.com/racecase/racecase/store/sqlite"
	"github.com/racecase/racecase/workspace"
)

// newTestEngine returns the API's gin engine over a fresh database and a
// service without a runner.
func newTestEngine(t *testing.T) *gin.Engine {
	t.Helper()
	return newTestEngineWith(t, func(*Config) {})
}

// newTestEngineWith is newTestEngine with the config changed by adjust.
func newTestEngineWith(t *testing.T, adjust func(*Config)) *gin.Engine {
	t.Helper()
	ctx := context.Background()
	db, err := sqlite.Open(ctx, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	d, err := challenges.Load(challenges.FS, "job-lock-double-send")
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(t.Output(), nil))
	svc, err := workspace.New(ctx, db, workspace.Config{
		Dossiers: []*challenges.Dossier{d}, Content: challenges.FS, HiddenSuite: hiddentests.Suite, Logger: log,
	})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Service: svc, SessionKey: []byte("test key"), Registry: prometheus.NewRegistry(), Logger: log}
	adjust(&cfg)
	r, err := newEngine(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return r
}
