# racecase: `make run` starts everything, `make test` proves everything.
# Both do their own set-up on a fresh machine (Docker engine, runner image).

GO       ?= go
BIN      := bin/racecase
RUNS     ?= 10
NODE_TESTS := hidden_tests/harness/test/*.test.mjs

.PHONY: all web build engine images run test test-go test-harness test-web test-postgres test-scale validate mutants reduction lint generate bench bench-scale clean

all: build

# The browser workspace: npm ci (only when package-lock.json changed), then the
# type check and the esbuild bundle into web/dist, which the binary embeds.
WEB_DEPS := web/node_modules/.installed

$(WEB_DEPS): web/package.json web/package-lock.json
	cd web && npm ci --no-audit --no-fund
	touch $@

web: $(WEB_DEPS)
	cd web && npm run typecheck && npm run build

build: web
	$(GO) build -o $(BIN) ./cmd/racecase

# Installs and starts a Docker engine when none answers (needs root on Debian).
engine:
	@./.ci/docker-engine || echo "make: no Docker engine; container tests will be skipped (set REQUIRE_DOCKER=1 to fail instead)" >&2

images: build engine
	$(BIN) images

# Serves the learner API on 127.0.0.1:8080 with its data in ./data. Runs need a
# Docker engine (`engine` starts one when it can; serve builds the runner image);
# without one, everything else still works and runs answer 503.
run: build engine
	$(BIN) serve

test: web images test-harness test-web test-go test-postgres test-scale validate

# Unit tests of the browser workspace's pure modules (patch, layouts).
test-web: $(WEB_DEPS)
	cd web && npm test

# Two test files at a time: node's default is one fewer than the cores.
test-harness:
	node --experimental-vm-modules --no-warnings --test --test-concurrency=2 $(NODE_TESTS)

# Includes the browser tests in web/ (headless Chromium against the real server).
test-go: web
	$(GO) vet ./...
	$(GO) test -count=1 -timeout 30m ./...

# The workspace suite and the end-to-end tests again on PostgreSQL (the
# store's conformance suite runs in test-go whenever RACECASE_TEST_POSTGRES
# names a server: .ci/postgres starts one). Skipped without a server unless
# REQUIRE_POSTGRES=1.
test-postgres:
	@if [ -z "$$RACECASE_TEST_POSTGRES" ]; then \
	  if [ "$$REQUIRE_POSTGRES" = 1 ]; then echo "REQUIRE_POSTGRES=1 but RACECASE_TEST_POSTGRES is empty (see .ci/postgres)"; exit 1; fi; \
	  echo "make: no RACECASE_TEST_POSTGRES; the PostgreSQL suites are skipped"; \
	else RACECASE_TEST_ENGINE=postgres $(GO) test -count=1 ./workspace/ && \
	  RACECASE_TEST_ENGINE=postgres $(GO) test -count=1 -run '$(POSTGRES_E2E)' ./cmd/racecase/; fi

# The end-to-end tests that run again on PostgreSQL: every one that drives
# a server through its API alone (the others read the SQLite file, reuse a
# data directory, test the SQLite-only disk guard, or expect runs refused
# without an engine: on a shared database they wait for another worker).
POSTGRES_E2E = ^(TestLearnerJourney|TestRunInFlightAndFullQueue|TestOwnershipIsPrivate|TestStaleSaveAndBadRequestsLoseNothing|TestCohortsFromCreationToTheTable|TestPreviewKeepsTheOwnLearnerAside|TestGitRefusesPushesThatWouldLoseOrBreakSomething|TestGitWithAWrongTokenReadsNothing|TestGitMalformedPackIsRefusedAndChangesNothing|TestGitPushRunsTheChecksAndSubmits|TestInstructorRoutesNeedTheToken|TestUnsolvedWorkspacesGetNoPlaybookText|TestWrongTurnsOnlyAfterAFailedSubmission|TestFindBySymptomThroughTheAPI|TestSearchEdges|TestSlowAndAbortedBodiesLoseNothingAndHoldNothing)$$

# A whole school on PostgreSQL: two API servers, three workers (one killed
# mid-run), 60 learners. Alone, after the other suites: it needs both cores.
test-scale:
	@if [ -z "$$RACECASE_TEST_POSTGRES" ]; then \
	  if [ "$$REQUIRE_POSTGRES" = 1 ]; then echo "REQUIRE_POSTGRES=1 but RACECASE_TEST_POSTGRES is empty (see .ci/postgres)"; exit 1; fi; \
	  echo "make: no RACECASE_TEST_POSTGRES; the scale test is skipped"; \
	else RACECASE_TEST_SCALE=1 $(GO) test -count=1 -timeout 30m -run '^TestAWholeSchoolSubmitsAtOnce$$' ./cmd/racecase/; fi

# The claims of every dossier, the reference's hidden run $(RUNS) times. The
# generated wrong fixes (mutants) are `make mutants`: every dossier kills all of
# its own, but running them takes about half an hour.
validate: images
	$(BIN) validate --runs $(RUNS) --mutants=false

# The explorer's reduction on and off, on every dossier's buggy repository, all
# of its decoys and all of its generated mutants: the same verdicts and the same
# first counterexamples (make test compares the buggy repositories; this runs
# every mutant twice, so it takes longer than make mutants). Then every dossier's reference
# with sleep sets alone and with source sets: the same kinds of schedule, each
# once (make test compares them on the harness's own fixtures).
reduction:
	RACECASE_REDUCTION=all $(GO) test -count=1 -timeout 180m -run '^(TestReductionKeepsVerdictsAndFirstCounterexamples|TestSourceSetsExploreEveryKindOfSchedule)$$' ./challenges/

# Every dossier's mutation score: the reference fix's mutants through the hidden
# suite, once each (about half an hour on 2 busy cores).
mutants: images
	$(BIN) validate --runs 1

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) tool sqlc diff -f store/sqlc.yaml
	cd store/postgres && $(GO) run ./internal/adaptergen -check
	@git ls-files -z 'hidden_tests/*.mjs' 'hidden_tests/*.js' 'challenges/*.js' 'authoring/skeleton/*.js' 'authoring/skeleton/*.mjs' \
	  | xargs -0 -n 1 -P 4 node --check

# Regenerates the queries of both engines (sqlc) and the PostgreSQL adapter.
generate:
	$(GO) tool sqlc generate -f store/sqlc.yaml
	cd store/postgres && $(GO) run ./internal/adaptergen

# Every figure is a ratio against a baseline measured in the same run: container
# (cold, warm) vs bare node and warm vs cold with the time per execution; the
# schedules and seconds of N = 2…6 identical workers on one job; git push vs the
# API; one learner's submit→verdict vs bare node and 16 learners' throughput vs
# cores ÷ the bare suite time.
bench: images
	$(GO) test -run '^$$' -bench HiddenSuite -benchtime 10x ./challenges/
	$(GO) test -run '^$$' -bench WorkersOnOneJob -benchtime 1x -timeout 30m ./challenges/
	$(GO) test -run '^$$' -bench SubmitByGitPush -benchtime 10x ./cmd/racecase/
	$(GO) test -run '^$$' -bench SubmitThroughput -benchtime 2x ./cmd/racecase/

# 60 learners submitting at once: the single process on SQLite, then one API
# server on PostgreSQL (.ci/postgres starts one) with 1, 2 and 3 workers.
bench-scale: images
	RACECASE_TEST_POSTGRES=$$(./.ci/postgres) REQUIRE_POSTGRES=1 \
	  $(GO) test -run '^$$' -bench Scale -benchtime 1x -timeout 60m ./cmd/racecase/

clean:
	rm -rf bin web/node_modules web/dist-test
	find web/dist -mindepth 1 ! -name .gitkeep -delete
