# live-draw — the two commands a newcomer needs are `make run` and `make test` (see README.md).
# Every target installs what it needs first (scripts/install-deps.sh is idempotent and fast when
# everything is there), so each works on a fresh Debian 12 machine with only Swift installed.

# Recipes use bash: scripts/lib.sh relies on it, and Debian's /bin/sh is dash.
SHELL := /bin/bash

SWIFT ?= swift
# Extra arguments for the server, e.g. `make run ARGS="--port 9000 --rounds 5"`.
ARGS ?=

RELEASE_BIN = .build/release/live-draw

.PHONY: run test build release install lint docker deps deps-test clean help bench image-check chaos soak-cluster

help:
	@echo "make run    install runtime deps, build release, serve the bundled players on :8080"
	@echo "            (records draws in ./data; extra server options: make run ARGS=\"--rounds 5\")"
	@echo "make test   install test deps, build, swift test, Python e2e + browser tests, lint"
	@echo "make build  debug build"
	@echo "make install PREFIX=/usr/local  release build into PREFIX/bin, the page and default lists into PREFIX/share/live-draw"
	@echo "make lint   hadolint on the Dockerfile + apt package list consistency (with self-test)"
	@echo "make chaos  cluster fault suite, CHAOS_RUNS (20) seeded runs of each fault (Tests/cluster-faults/README.md)"
	@echo "make soak-cluster  3 nodes + Redis for SOAK_MINUTES (30): hosts, 220 viewers, rolling restarts, then every record checked"
	@echo "make bench  fan-out benchmark vs the raw-C lws reference (Benchmarks/README.md; BENCH_ARGS=...)"
	@echo "make docker build the container image (needs a running Docker engine)"
	@echo "make image-check  the image's runtime stage without Docker: debootstrap, chroot, uid 10001 (root)"
	@echo "make clean  remove build products and artifacts"

deps:
	scripts/install-deps.sh

deps-test:
	scripts/install-deps.sh --test

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release --product live-draw

# The binary's defaults are the bundled defaults/*.json (as file:// URLs), port 8080 and
# public/; it prints the viewer link and the lobby host link on start. Ctrl-C stops it.
# Draw records go to ./data (git-ignored; the binary's default) unless LIVE_DRAW_DATA_DIR or ARGS
# say otherwise.
run: release
	$(RELEASE_BIN) $(ARGS)

# A packaged layout (issue 28, item 9): the binary in PREFIX/bin, its page and default lists in
# PREFIX/share/live-draw, where the binary looks for them when started from any directory
# (LaunchPaths: the working directory first, then beside the binary, then PREFIX/share/live-draw).
# DESTDIR stages the tree for a package.
PREFIX ?= /usr/local
DESTDIR ?=
install: release
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/live-draw"
	install -m 0755 $(RELEASE_BIN) "$(DESTDIR)$(PREFIX)/bin/live-draw"
	rm -rf "$(DESTDIR)$(PREFIX)/share/live-draw/public" "$(DESTDIR)$(PREFIX)/share/live-draw/defaults"
	cp -R public defaults "$(DESTDIR)$(PREFIX)/share/live-draw/"

# LIVE_DRAW_BIN tells the Python suites which server binary to start.
test: deps-test
	$(SWIFT) build
	$(SWIFT) test
	LIVE_DRAW_BIN="$$($(SWIFT) build --show-bin-path)/live-draw" scripts/test-python.sh
	$(MAKE) --no-print-directory lint

lint: deps-test
	@. scripts/lib.sh && hadolint=$$(find_tool hadolint) \
	  || { echo "lint: hadolint not found; run scripts/install-deps.sh --test" >&2; exit 1; }; \
	  echo "hadolint Dockerfile"; "$$hadolint" Dockerfile && echo "hadolint: clean"
	scripts/check-apt-consistency.sh
	scripts/check-apt-consistency.sh --self-test

# The cluster fault suite's long form (issue 27, Tests/cluster-faults/README.md): CHAOS_RUNS fresh
# seeds of each fault against three real nodes and a real redis-server; prints per-fault pass/fail
# counts and the seeds that failed. `make test` runs one seed of each. Replay one run with
# CHAOS_SEED=<seed> (and CHAOS_ARGS="-k <fault>"). Not part of `make test`: about 15 s a run.
CHAOS_RUNS ?= 20
CHAOS_ARGS ?=
chaos: deps-test
	$(SWIFT) build
	CHAOS_RUNS=$(CHAOS_RUNS) LIVE_DRAW_BIN="$$($(SWIFT) build --show-bin-path)/live-draw" \
	  python3 -m pytest Tests/cluster-faults/test_faults.py -q -p no:cacheprovider $(CHAOS_ARGS)
	SOAK_MINUTES=3 SOAK_SEED=$(SOAK_SEED) LIVE_DRAW_BIN="$$($(SWIFT) build --show-bin-path)/live-draw" \
	  python3 -m pytest Tests/soak -q -s -p no:cacheprovider

# The cluster soak (issue 44, Tests/soak/README.md): three nodes on one Redis (AOF) for
# SOAK_MINUTES, 20 rooms and 220 recording viewers over the nodes, hosts acting through random
# nodes, a SIGTERM restart of one node every 2 minutes and one Redis restart; then every viewer's
# transcript is checked against every node's history. Prints Redis used_memory per draw and each
# node's RSS per minute. SOAK_SEED replays a run's choices. Not part of `make test` (`make chaos`
# runs its 3-minute form).
SOAK_MINUTES ?= 30
SOAK_SEED ?=
soak-cluster: deps-test
	$(SWIFT) build
	SOAK_MINUTES=$(SOAK_MINUTES) SOAK_SEED=$(SOAK_SEED) LIVE_DRAW_BIN="$$($(SWIFT) build --show-bin-path)/live-draw" \
	  python3 -m pytest Tests/soak -q -s -p no:cacheprovider

# Fan-out and timing benchmark (issues 7 and 11); not part of `make test`. Minutes long; pins to CPUs 0 and 1.
# e.g. make bench BENCH_ARGS="--scenarios a --n 1000,10000 --repeats 1"
BENCH_ARGS ?=
bench: release
	python3 Benchmarks/bench.py --skip-swift-build $(BENCH_ARGS)

# The Dockerfile's runtime stage without Docker (scripts/image-check.sh): a release build, a
# debootstrap root filesystem with only the runtime packages, the server run there as uid 10001.
# Needs root and a Debian mirror; minutes long, so not part of `make test`: .ci/run runs it after.
image-check:
	scripts/install-deps.sh --test --image-check
	scripts/image-check.sh

# Needs a Docker engine (not only the client); CI does not run this.
docker:
	docker build -t live-draw .

clean:
	rm -rf .build artifacts
