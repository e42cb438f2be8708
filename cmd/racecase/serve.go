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
	"github.com/racecase/racecase/runner"
	"github.com/racecase/racecase/web"
	"github.com/racecase/racecase/workspace"
)

// Shutdown budgets.
const (
	httpShutdownTimeout  = 10 * time.Second
	queueShutdownTimeout = 30 * time.Second
	poolShutdownTimeout  = 30 * time.Second
)

// serveOptions are the flags of `racecase serve`.
type serveOptions struct {
	addr        string
	data        string
	database    string // a PostgreSQL URL; "" means SQLite in data
	dockerHost  string
	workers     int
	warm        int // warm containers; -1: one per worker
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
// "" when --min-free-disk 0 turns the guard off or the database is
// PostgreSQL's (whose server guards its own disk: a full one gets 507 too).
func (o serveOptions) guardedDir() string {
	if o.quotas.minFreeDisk == 0 || o.database != "" {
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
	flags.StringVar(&o.database, "database", "", "PostgreSQL database shared with other API servers and workers, postgres://… (default: $"+databaseEnv+", else SQLite in --data)")
	flags.StringVar(&o.dockerHost, "docker-host", "", "Docker engine that runs the runs (default: $DOCKER_HOST, else the local one)")
	flags.IntVar(&o.workers, "workers", runtime.NumCPU(), "runs executed at once by this process; 0 (PostgreSQL only): none, racecase worker processes run them")
	flags.IntVar(&o.warm, "warm", -1, "containers kept started and booted ahead of the runs that will need them, each serving one run (-1: one per worker; 0: none)")
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
		fmt.Fprintln(stderr, "usage: racecase serve [--addr host:port] [--data dir | --database postgres://…] [--docker-host H] [--workers N] [--warm N]")
		fmt.Fprintln(stderr, "                      [--max-queued N] [--run-grace d] [--rescue-after d]")
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
	if flags.NArg() > 0 || o.workers < 0 || o.warm < -1 || o.maxQueued < 0 || o.runGrace <= 0 || o.rescueAfter <= 0 || o.bodyTimeout <= 0 || o.maxConns < 1 || !o.quotas.valid() {
		flags.Usage()
		return exitUsage
	}
	if *o.content.hidden != "" && *o.content.challenges == "" {
		fmt.Fprintln(stderr, "racecase serve: --hidden-tests goes with --challenges")
		return exitUsage
	}
	o.database = databaseURL(o.database, getenv)
	if o.database != "" && !isPostgres(o.database) {
		fmt.Fprintln(stderr, "racecase serve: --database takes a PostgreSQL URL, postgres://…; without it the SQLite database in --data is used")
		return exitUsage
	}
	if o.workers == 0 && o.database == "" {
		fmt.Fprintln(stderr, "racecase serve: --workers 0 leaves runs to `racecase worker` processes, which need a shared PostgreSQL database (--database)")
		return exitUsage
	}
	o.token, o.tokenMade = instructorToken(o.token, getenv)
	if o.tokenMade && o.database != "" {
		fmt.Fprintln(stderr, "racecase serve: with a shared database every API server must take the same instructor token: set --instructor-token or $"+instructorTokenEnv)
		return exitUsage
	}
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
	db, err := openDatabase(ctx, o.database, o.data)
	if err != nil {
		return err
	}
	defer db.Close()
	var (
		rn    *runner.Docker
		image string
		pool  *runner.Pool
	)
	if o.workers > 0 {
		if rn, image = connectRunner(ctx, o.dockerHost, log, stderr); rn != nil {
			defer rn.Close()
			pool = runner.NewPool(rn, runner.PoolConfig{Size: o.warmContainers(), Logger: log})
			defer closePool(pool, log) // after the instructor desk's validations, before the engine
		}
	}
	registry := newRegistry()
	if pool != nil {
		registerPool(registry, pool)
	}
	cfg := workspace.Config{
		Dossiers: dossiers, Content: challenges.FS, Image: image, HiddenSuite: instructor.Suites(dossiers, dirs),
		Workers: o.workers, MaxInFlight: o.maxQueued, RunGrace: o.runGrace, RescueAfter: o.rescueAfter,
		MaxWorkspaces: o.quotas.maxWorkspaces, HistoryVersions: o.quotas.historyVersions, HistoryBytes: o.quotas.historyBytes,
		RunsKept: o.quotas.runsKept, PruneEvery: o.quotas.pruneEvery,
		Registerer: registry, Logger: log, QueueLogger: queueLogger(stderr),
	}
	if pool != nil {
		cfg.Runner = pool
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

// warmContainers is the size of the pool of warm containers.
func (o serveOptions) warmContainers() int {
	if o.warm < 0 {
		return o.workers
	}
	return o.warm
}

// closePool removes the warm containers at shutdown, once no run is left.
func closePool(pool *runner.Pool, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(context.Background(), poolShutdownTimeout)
	defer cancel()
	if err := pool.Close(ctx); err != nil {
		log.Error("removing the warm containers", "error", err.Error())
	}
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
