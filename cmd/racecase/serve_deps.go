package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/runner"
)

// engineTimeout bounds reaching the Docker engine at start-up.
const engineTimeout = 10 * time.Second

// loadServedDossiers loads every dossier. Broken ones are logged and left
// out, so that one dossier being written does not take the others down.
func loadServedDossiers(log *slog.Logger) ([]*challenges.Dossier, error) {
	dossiers, err := challenges.LoadAll(challenges.FS)
	if err != nil {
		log.Warn("some dossiers are broken and not served", "problems", err.Error())
	}
	if len(dossiers) == 0 {
		return nil, fmt.Errorf("no dossier to serve: %w", err)
	}
	return dossiers, nil
}

// connectRunner connects to the Docker engine at host ("" means
// $DOCKER_HOST, else the local one) and makes sure the runner image exists. Without an engine it logs how to start one and returns nil:
// racecase then serves everything but runs. Leftover containers are not
// reaped here: the run queue reaps its own at start.
func connectRunner(ctx context.Context, host string, log *slog.Logger, progress io.Writer) (*runner.Docker, string) {
	pingCtx, cancel := context.WithTimeout(ctx, engineTimeout)
	defer cancel()
	engine, err := runner.NewDockerAt(pingCtx, host)
	if err != nil {
		log.Warn("no Docker engine answers: runs are unavailable until one is started (./.ci/docker-engine or `make engine`) and racecase restarted",
			"error", err.Error())
		return nil, ""
	}
	tag, err := ensureImage(ctx, engine, progress)
	if err != nil {
		engine.Close()
		log.Warn("the runner image could not be built: runs are unavailable", "error", err.Error())
		return nil, ""
	}
	return engine, tag
}

// newRegistry returns a metrics registry with the Go and process collectors.
func newRegistry() *prometheus.Registry {
	r := prometheus.NewRegistry()
	r.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return r
}

// queueLogger returns the logger for River: warnings and errors only.
func queueLogger(w io.Writer) *slog.Logger {
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: slog.LevelWarn})).With("component", "queue")
}

// registerPool exports what the pool of warm containers did.
func registerPool(r prometheus.Registerer, pool *runner.Pool) {
	counter := func(name, help string, read func(runner.PoolStats) int64) prometheus.Collector {
		return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help},
			func() float64 { return float64(read(pool.Stats())) })
	}
	r.MustRegister(
		counter("racecase_runner_warm_runs_total", "Runs served by a container warmed ahead.", func(s runner.PoolStats) int64 { return s.Warm }),
		counter("racecase_runner_cold_runs_total", "Runs whose container was started for them.", func(s runner.PoolStats) int64 { return s.Cold }),
		counter("racecase_runner_warm_replaced_total", "Warm containers dropped unused: they died or waited too long.", func(s runner.PoolStats) int64 { return s.Replaced }),
	)
}
