package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"runtime"
	"time"

	"github.com/racecase/racecase/api"
	"github.com/racecase/racecase/authoring"
	"github.com/racecase/racecase/challenges"
	"github.com/racecase/racecase/instructor"
	"github.com/racecase/racecase/store/sqlite"
	"github.com/racecase/racecase/web"
	"github.com/racecase/racecase/workspace"
)

// Shutdown budgets.
const (
	httpShutdownTimeout  = 10 * time.Second
	queueShutdownTimeout = 30 * time.Second
)

// serveOptions are the flags of `racecase serve`.
type serveOptions struct {
	addr        string
	data        string
	workers     int
	maxQueued   int
	runGrace    time.Duration
	rescueAfter time.Duration
	content     *contentFlags // --challenges and --hidden-tests: dossiers besides the built-in ones
	token       string        // the instructor token
	tokenMade   bool          // token was generated, so the instructor URL carries it
	tokensFile  string        // more instructor tokens, by name
	tokens      map[string]string
	bodyTimeout time.Duration
	maxConns    int // connections per client address
	quotas      quotaOptions
}

// quotaOptions are the quotas and retention limits of `racecase serve`.
type quotaOptions struct {
	newLearners     int // per client address a minute
	maxWorkspaces   int // per learner
	historyVersions int // per file
	historyBytes    int64
	runsKept        int // per workspace
	pruneEvery      time.Duration
	minFreeDisk     int64
}

// addQuotaFlags declares the quota and retention flags into q.
func addQuotaFlags(flags *flag.FlagSet, q *quotaOptions) {
	flags.IntVar(&q.newLearners, "new-learners-per-minute", api.DefaultNewLearnersPerMinute, "new learners one client address may create a minute; past it 429")
	flags.IntVar(&q.maxWorkspaces, "max-workspaces", workspace.DefaultMaxWorkspaces, "workspaces one learner may have; past it 403")
	flags.IntVar(&q.historyVersions, "history-versions", workspace.DefaultHistoryVersions, "replaced versions kept of each file")
	flags.Int64Var(&q.historyBytes, "history-bytes", workspace.DefaultHistoryBytes, "bytes of replaced versions kept of each file, newest first")
	flags.IntVar(&q.runsKept, "runs-kept", workspace.DefaultRunsKept, "finished runs kept per workspace, with their snapshots and events; older ones are pruned")
	flags.DurationVar(&q.pruneEvery, "prune-every", workspace.DefaultPruneEvery, "how often older runs are pruned")
	flags.Int64Var(&q.minFreeDisk, "min-free-disk", api.DefaultMinFreeBytes, "bytes the data directory's disk keeps free: below it, every change gets 507 and nothing is written (0: no check; a full disk still gets 507)")
}

// valid reports whether every quota is positive (--min-free-disk may be 0).
func (q quotaOptions) valid() bool {
	return q.newLearners > 0 && q.maxWorkspaces > 0 && q.historyVersions > 0 && q.historyBytes > 0 &&
		q.runsKept > 0 && q.pruneEvery > 0 && q.minFreeDisk >= 0
}

// guardedDir returns the data directory whose free space the API guards, or
// "" when --min-free-disk 0 turns the guard off.
func (o serveOptions) guardedDir() string {
	if o.quotas.minFreeDisk == 0 {
		return ""
	}
	return o.data
}

func serve(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	var o serveOptions
	flags := flag.NewFlagSet("serve", flag.ContinueOnError)
	flags.SetOutput(stderr)
	flags.StringVar(&o.addr, "addr", "127.0.0.1:8080", "address to listen on")
	flags.StringVar(&o.data, "data", "./data", "data directory (the SQLite database lives there)")
	flags.IntVar(&o.workers, "workers", runtime.NumCPU(), "runs executed at once")
	flags.IntVar(&o.maxQueued, "max-queued", 0, "runs queued or running before new ones get 429 (0: 8 per worker)")
	flags.DurationVar(&o.runGrace, "run-grace", 30*time.Second, "time a run may take beyond its wall-clock limit (container start and clean-up) before it is abandoned and retried")
	flags.DurationVar(&o.rescueAfter, "rescue-after", 10*time.Second, "how long a run must have been running, and past its time budget, before it is treated as orphaned by a dead process and run again")
	flags.DurationVar(&o.bodyTimeout, "body-timeout", api.DefaultBodyTimeout, "time a client has to send a request body, and to read a response (event streams excepted)")
	flags.IntVar(&o.maxConns, "max-conns-per-client", 64, "connections one client address may hold open at once; past it a connection gets 429")
	addQuotaFlags(flags, &o.quotas)
	o.content = addContentFlags(flags, "")
	flags.StringVar(&o.token, "instructor-token", "", "bearer token of the instructor page and API (default: $"+instructorTokenEnv+", else a random one printed at start)")
	flags.StringVar(&o.tokensFile, "instructor-tokens", "", "file of more instructor tokens, one \"name token\" a line; the name shows as who made a cohort or asked for a validation")
	flags.Usage = func() {
		fmt.Fprintln(stderr, "usage: racecase serve [--addr host:port] [--data dir] [--workers N] [--max-queued N] [--run-grace d] [--rescue-after d]")
		fmt.Fprintln(stderr, "                      [--body-timeout d] [--max-conns-per-client N] [--new-learners-per-minute N] [--max-workspaces N]")
		fmt.Fprintln(stderr, "                      [--history-versions N] [--history-bytes B] [--runs-kept N] [--prune-every d] [--min-free-disk B]")
		fmt.Fprintln(stderr, "                      [--challenges DIR [--hidden-tests DIR]] [--instructor-token T] [--instructor-tokens FILE]")
		fmt.Fprintln(stderr, "Serves the learner API and the instructor page. Runs need a Docker engine; without one everything else still works.")
		fmt.Fprintln(stderr, "Dossiers in --challenges are served besides the built-in ones and reload within a second of a change.")
		flags.PrintDefaults()
	}
	if err := flags.Parse(args); err != nil {
		return exitUsage
	}
	if flags.NArg() > 0 || o.workers < 1 || o.maxQueued < 0 || o.runGrace <= 0 || o.rescueAfter <= 0 || o.bodyTimeout <= 0 || o.maxConns < 1 || !o.quotas.valid() {
		flags.Usage()
		return exitUsage
	}
	if *o.content.hidden != "" && *o.content.challenges == "" {
		fmt.Fprintln(stderr, "racecase serve: --hidden-tests goes with --challenges")
		return exitUsage
	}
	o.token, o.tokenMade = instructorToken(o.token, getenv)
	if o.tokensFile != "" {
		var err error
		if o.tokens, err = readInstructorTokens(o.tokensFile); err != nil {
			fmt.Fprintln(stderr, "racecase serve:", err)
			return exitUsage
		}
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	if err := runServer(ctx, o, log, stdout, stderr); err != nil {
		log.Error("racecase serve stopped", "error", err.Error())
		return exitTrouble
	}
	return exitOK
}

// runServer serves until ctx ends, then shuts down gracefully: no new
// requests, open event streams closed, running runs given time to record
// their verdicts, the database closed last.
func runServer(ctx context.Context, o serveOptions, log *slog.Logger, stdout, stderr io.Writer) error {
	dossiers, err := loadServedDossiers(log)
	if err != nil {
		return err
	}
	var dirs authoring.Dirs
	if *o.content.challenges != "" {
		dirs = o.content.dirs()
	}
	db, err := sqlite.Open(ctx, o.data)
	if err != nil {
		return err
	}
	defer db.Close()
	rn, image := connectRunner(ctx, log, stderr)
	if rn != nil {
		defer rn.Close()
	}
	registry := newRegistry()
	cfg := workspace.Config{
		Dossiers: dossiers, Content: challenges.FS, Image: image, HiddenSuite: instructor.Suites(dossiers, dirs),
		Workers: o.workers, MaxInFlight: o.maxQueued, RunGrace: o.runGrace, RescueAfter: o.rescueAfter,
		MaxWorkspaces: o.quotas.maxWorkspaces, HistoryVersions: o.quotas.historyVersions, HistoryBytes: o.quotas.historyBytes,
		RunsKept: o.quotas.runsKept, PruneEvery: o.quotas.pruneEvery,
		Registerer: registry, Logger: log, QueueLogger: queueLogger(stderr),
	}
	if rn != nil {
		cfg.Runner = rn
	}
	svc, err := workspace.New(ctx, db, cfg)
	if err != nil {
		return err
	}
	key, err := svc.SessionKey(ctx)
	if err != nil {
		return err
	}
	deskCtx, stopDesk := context.WithCancel(ctx)
	defer stopDesk()
	desk, err := instructor.New(deskCtx, instructor.Config{
		Service: svc, History: svc, BuiltIn: dossiers, Dirs: dirs, Runner: svc.ContainerRunner(), Image: image, Logger: log,
	})
	if err != nil {
		return err
	}
	defer func() {
		stopDesk() // validations end with the server, before the runner closes
		desk.Wait()
	}()
	go desk.Watch(deskCtx, instructor.PollInterval)
	done := make(chan struct{})
	handler, err := api.New(api.Config{Service: svc, SessionKey: key, Registry: registry, Logger: log, Done: done, App: web.Handler(),
		Instructor: desk, InstructorToken: o.token, InstructorTokens: o.tokens, BodyTimeout: o.bodyTimeout,
		NewLearnersPerMinute: o.quotas.newLearners, DataDir: o.guardedDir(), MinFreeBytes: o.quotas.minFreeDisk})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", o.addr)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", o.addr, err)
	}
	ln = api.LimitConnsPerClient(ln, o.maxConns)
	if err := svc.Start(ctx); err != nil {
		ln.Close()
		return err
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "racecase: serving on http://%s\n", ln.Addr())
	printInstructorURL(stdout, ln.Addr().String(), o)

	select {
	case <-ctx.Done():
		log.Info("shutting down")
	case err := <-served:
		log.Error("HTTP server failed", "error", err.Error())
	}
	close(done)
	return shutdown(srv, svc)
}

// shutdown stops the HTTP server, then the run queue, each within its budget.
func shutdown(srv *http.Server, svc *workspace.Service) error {
	httpCtx, cancel := context.WithTimeout(context.Background(), httpShutdownTimeout)
	defer cancel()
	errHTTP := srv.Shutdown(httpCtx)
	if errors.Is(errHTTP, context.DeadlineExceeded) {
		errHTTP = srv.Close()
	}
	queueCtx, cancelQueue := context.WithTimeout(context.Background(), queueShutdownTimeout)
	defer cancelQueue()
	return errors.Join(errHTTP, svc.Stop(queueCtx))
}
