# racecase: `make run` starts everything, `make test` proves everything.
# Both do their own set-up on a fresh machine (Docker engine, runner image).

GO       ?= go
BIN      := bin/racecase
RUNS     ?= 10
NODE_TESTS := hidden_tests/harness/test/*.test.mjs

.PHONY: all build engine images run test test-go test-harness validate lint bench clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/racecase

# Installs and starts a Docker engine when none answers (needs root on Debian).
engine:
	@./.ci/docker-engine || echo "make: no Docker engine; container tests will be skipped (set REQUIRE_DOCKER=1 to fail instead)" >&2

images: build engine
	$(BIN) images

run: images
	$(BIN) serve

test: images test-harness test-go validate

test-harness:
	node --test $(NODE_TESTS)

test-go:
	$(GO) vet ./...
	$(GO) test -count=1 ./...

validate: images
	$(BIN) validate --runs $(RUNS)

lint:
	@unformatted=$$(gofmt -l $$(git ls-files '*.go')); \
	  if [ -n "$$unformatted" ]; then echo "gofmt would change:"; echo "$$unformatted"; exit 1; fi
	$(GO) vet ./...
	@for f in $$(git ls-files 'hidden_tests/*.mjs' 'challenges/*.js'); do node --check $$f || exit 1; done

bench: images
	$(GO) test -run '^$$' -bench . -benchtime 10x ./challenges/

clean:
	rm -rf bin
