package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"runtime"
	"time"

	"github.com/racecase/racecase/authoring"
	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/instructor"
	"github.com/racecase/racecase/workspace"
)

// workerOptions are the flags of `racecase worker`.
type workerOptions struct {
	database    string
	dockerHost  string
	workers     int
	runGrace    time.Duration
	rescueAfter time.Duration
}

// worker runs `racecase worker`: a process without HTTP that executes the
// runs queued in a shared PostgreSQL database on its own Docker engine.
func worker(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	var o workerOptions
	flags := flag.NewFlagSet("worker", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.StringVar(&o.database, "database", "", "the PostgreSQL database the API servers share, postgres://… (default: $"+databaseEnv+")")
	flags.StringVar(&o.dockerHost, "docker-host", "", "Docker engine that runs the runs (default: $DOCKER_HOST, else the local one)")
	flags.IntVar(&o.workers, "workers", runtime.NumCPU(), "runs executed at once by this process")
	flags.DurationVar(&o.runGrace, "run-grace", 30*time.Second, "time a run may take beyond its wall-clock limit (container start and clean-up) before it is abandoned and retried")
	flags.DurationVar(&o.rescueAfter, "rescue-after", 10*time.Second, "how long a run must have been running, and past its time budget, before it is treated as orphaned by a dead process and run again")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: racecase worker [--database postgres://…] [--docker-host H] [--workers N] [--run-grace d] [--rescue-after d]")
		fmt.Fprintln(stderr, "Executes the runs that API servers (racecase serve) queue in a shared PostgreSQL database, on its own Docker engine.")
		fmt.Fprintln(stderr, "It runs the built-in dossiers (dossiers served from --challenges directories are run by API servers with --workers > 0).")
		fmt.Fprintln(stderr, "It serves no HTTP; stop it with SIGTERM or SIGINT (running runs finish first), or kill it: its runs run again elsewhere.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return exitUsage
	}
	if flags.NArg() > 0 || o.workers < 1 || o.runGrace <= 0 || o.rescueAfter <= 0 {
		flags.Usage()
		return exitUsage
	}
	o.database = databaseURL(o.database, getenv)
	if !isPostgres(o.database) {
		fmt.Fprintln(stderr, "racecase worker: --database (or $"+databaseEnv+") must name the PostgreSQL database the API servers share, postgres://…")
		return exitUsage
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if err := runWorker(ctx, o, log, stdout, stderr); err != nil {
		log.Error("racecase worker stopped", "error", err.Error())
		return exitTrouble
	}
	return exitOK
}

// runWorker works runs until ctx ends, then gives the running ones time to
// record their verdicts.
func runWorker(ctx context.Context, o workerOptions, log *slog.Logger, stdout, stderr io.Writer) error {
	dossiers, err := loadServedDossiers(log)
	if err != nil {
		return err
	}
	db, err := openDatabase(ctx, o.database, "")
	if err != nil {
		return err
	}
	defer db.Close()
	rn, image := connectRunner(ctx, o.dockerHost, log, stderr)
	if rn == nil {
		return fmt.Errorf("a worker needs a Docker engine")
	}
	defer rn.Close()
	svc, err := workspace.New(ctx, db, workspace.Config{
		Dossiers: dossiers, Content: challenges.FS, Image: image, HiddenSuite: instructor.Suites(dossiers, authoring.Dirs{}),
		Runner: rn, Workers: o.workers, RunGrace: o.runGrace, RescueAfter: o.rescueAfter,
		Logger: log, QueueLogger: queueLogger(stderr),
	})
	if err != nil {
		return err
	}
	if err := svc.Start(ctx); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "racecase: worker executing up to %d runs at once\n", o.workers)
	<-ctx.Done()
	log.Info("shutting down")
	stopCtx, cancel := context.WithTimeout(context.Background(), queueShutdownTimeout)
	defer cancel()
	return svc.Stop(stopCtx)
}
