// Command racecase is the concurrency-debugging challenge sandbox: it serves
// incident dossiers, runs learners' fixes in locked-down containers against
// hidden concurrency tests, and proves every dossier in CI.
//
// main only wires the process to run; every command lives in its own file.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}
