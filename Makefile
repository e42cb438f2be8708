# racecase: `make run` starts everything, `make test` proves everything.
# Both do their own set-up on a fresh machine (Docker engine, runner image).

GO       ?= go
BIN      := bin/racecase
RUNS     ?= 10
NODE_TESTS := hidden_tests/harness/test/*.test.mjs

.PHONY: all web build engine images run test test-go test-harness test-web validate lint bench clean

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

test: web images test-harness test-web test-go validate

# Unit tests of the browser workspace's pure modules (patch, layouts).
test-web: $(WEB_DEPS)
	cd web && npm test

test-harness:
	node --experimental-vm-modules --no-warnings --test $(NODE_TESTS)

# Includes the browser tests in web/ (headless Chromium against the real server).
test-go: web
	$(GO) vet ./...
	$(GO) test -count=1 ./...

validate: images
	$(BIN) validate --runs $(RUNS)

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	$(GO) tool sqlc diff -f store/sqlc.yaml
	@for f in $$(git ls-files 'hidden_tests/*.mjs' 'hidden_tests/*.js' 'challenges/*.js' 'authoring/skeleton/*.js' 'authoring/skeleton/*.mjs'); do node --check $$f || exit 1; done

# Every figure is a ratio against a baseline measured in the same run: container
# (cold, warm) vs bare node and warm vs cold with the time per execution; git push
# vs the API; one learner's submit→verdict vs bare node and 16 learners' throughput
# vs cores ÷ the bare suite time.
bench: images
	$(GO) test -run '^$$' -bench . -benchtime 10x ./challenges/
	$(GO) test -run '^$$' -bench SubmitByGitPush -benchtime 10x ./cmd/racecase/
	$(GO) test -run '^$$' -bench SubmitThroughput -benchtime 2x ./cmd/racecase/

clean:
	rm -rf bin web/node_modules web/dist-test
	find web/dist -mindepth 1 ! -name .gitkeep -delete
