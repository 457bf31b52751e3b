# cairn — build, test, install. `make help` lists the targets.
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
MANDIR = $(DESTDIR)$(PREFIX)/share/man
BASHDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

SWIFT ?= swift
TOOLS = cairn-hash cairn-observe cairn-fetch cairn-reconcile cairn-gate cairn-trash cairn-tag cairn-restore
RELEASE_BIN = $(shell $(SWIFT) build -c release --show-bin-path 2>/dev/null)
# On Linux the Swift runtime and Foundation are linked in, so installed binaries keep working
# without a toolchain; macOS ships the runtime itself.
STATIC_FLAGS = $(if $(filter Linux,$(shell uname -s)),--static-swift-stdlib)
VERSION = $(shell sed -n 's/.*current = "\(.*\)"/\1/p' Sources/CairnSupport/Version.swift)
DIST = cairn-$(VERSION)-$(shell uname -s | tr A-Z a-z)-$(shell uname -m)
STAGE = .build-dist/$(DIST)

.PHONY: all build release test check lint man-lint man-options completions-check completions \
	format-lint install uninstall bench demo setup clean help stage dist check-dist check-container check-nightly fuzz fuzz-build fuzz-check

all: release

help:
	@echo "make            build release binaries"
	@echo "make demo       run the whole story against the bundled Immich test server"
	@echo "make check      build, run every test, lint man pages, completions and formatting"
	@echo "make test       build and run the tests only"
	@echo "make install    install binaries, man pages and completions (PREFIX=$(PREFIX))"
	@echo "make uninstall  remove what install put there"
	@echo "make dist       a release tarball in .build-dist/ (binaries, man pages, completions, units)"
	@echo "make check-dist run that release in a Debian root without Swift (needs root, debootstrap)"
	@echo "make check-container  build the container image from that release and run it (podman)"
	@echo "make bench      run the benchmarks (docs/BENCHMARKS.md)"
	@echo "make fuzz       fuzz every reader for FUZZ_TIME seconds each (docs/FUZZING.md)"
	@echo "make completions  regenerate completions/ from the built binaries"

build:
	$(SWIFT) build

# One binary, cairn, holds every tool (the tools' own launchers are for development).
release:
	$(SWIFT) build -c release --product cairn $(STATIC_FLAGS)

# Tests run the built binaries through real pipes, so build everything first.
# Suites that run daemons, flood a server or load the browser (two real Syncthing instances;
# listings that page for ever, with and without a signal to the pipeline; Chromium drawing a
# 5,000-tile review page; thumbnail fetches on a deadline, against a hanging server or with
# their first request at the busiest moment of the run) run in a test process of their own:
# beside the hundreds of other tests on two cores they would take the CPU the in-process test
# servers need to answer within the tools' time-outs. The watcher's suites run one
# after another: one lowers the kernel's inotify queue, a setting of the whole machine, while
# its watcher starts, and a watcher of another suite starting then would get that queue too.
ISOLATED_SUITES = SyncthingFieldTests|EndlessListingTests|PipelineSignalTests|ReviewPageScaleTests|ReviewFetchLimitTests|ReviewGateTests
WATCHER_SUITES = WatcherTests WatcherPipelineTests WatcherLoadTests WatcherArrivalTests WatcherBlindRootTests \
	SeenUnhashedWatcherTests
test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --skip '$(ISOLATED_SUITES)|$(subst $() ,|,$(WATCHER_SUITES))'
	$(SWIFT) test --skip-build --filter '$(ISOLATED_SUITES)'
	for suite in $(WATCHER_SUITES); do $(SWIFT) test --skip-build --filter "$$suite" || exit 1; done

check: test lint fuzz-check check-nightly check-dist check-container

lint: man-lint man-options completions-check format-lint

man-lint:
	@scripts/check-man.sh lint

man-options: build
	@scripts/check-man.sh options

completions-check: build
	@scripts/completions.sh check

completions: build
	@scripts/completions.sh write

format-lint:
	@scripts/check-format.sh

# The release tree `make dist` packs; its install.sh writes PREFIX into the nightly script and units.
stage: release
	scripts/stage.sh --strip "$(RELEASE_BIN)" "$(STAGE)"

install: stage
	DESTDIR="$(DESTDIR)" "$(STAGE)/install.sh" "$(PREFIX)"

# xz: a third smaller than gzip -9 for the one binary, and every tar today reads it.
dist: stage
	XZ_OPT='-9 -T0' tar -C .build-dist -cJf .build-dist/$(DIST).tar.xz $(DIST)
	@ls -l .build-dist/$(DIST).tar.xz

# The nightly script and units, installed from a tree of the debug binaries; a local receiver
# takes the notifications.
check-nightly: build
	@scripts/check-nightly.sh

# The release tarball in a minimal Debian root without Swift, through the whole pipeline.
check-dist: dist build
	@scripts/check-dist.sh .build-dist/$(DIST).tar.xz

# The container image (Containerfile) from that release tarball, run with podman beside the test
# server: the scheduler, a deletion, the dry run and the real run.
check-container: dist build
	@scripts/check-container.sh .build-dist/$(DIST).tar.xz

# Every file install put there, named from this tree as stage.sh names them (check-nightly
# installs and uninstalls, and finds nothing left).
uninstall:
	@scripts/uninstall.sh "$(DESTDIR)$(PREFIX)"

# Fuzzing (docs/FUZZING.md): libFuzzer through Swift's -sanitize=fuzzer, in a build folder of
# its own. New inputs go to .build-fuzz/corpus, crashes to .build-fuzz/crashes; a crash becomes a
# regression test by moving it into fuzz/corpus/<target>/.
FUZZ_TIME ?= 60
FUZZ_TARGETS = record stream listing scan-snapshot patched-scan-snapshot listing-snapshot \
	presence-cache configuration
FUZZ_BIN = .build-fuzz/debug/cairn-fuzz

fuzz-build:
	CAIRN_FUZZ=1 $(SWIFT) build --build-path .build-fuzz --product cairn-fuzz \
	  -Xswiftc -sanitize=fuzzer,address

fuzz: fuzz-build
	@mkdir -p .build-fuzz/crashes
	@for t in $(FUZZ_TARGETS); do \
	  echo "== fuzz $$t ($(FUZZ_TIME) s)"; \
	  mkdir -p .build-fuzz/corpus/$$t; \
	  CAIRN_FUZZ_TARGET=$$t $(FUZZ_BIN) -max_total_time=$(FUZZ_TIME) -max_len=65536 \
	    -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
	    -artifact_prefix=.build-fuzz/crashes/$$t- .build-fuzz/corpus/$$t fuzz/corpus/$$t \
	    || exit 1; \
	done

# The short pass `make check` runs; the corpus itself runs in the tests (FuzzCorpusTests).
fuzz-check:
	@$(MAKE) --no-print-directory fuzz FUZZ_TIME=10

bench:
	@for b in bench/*.sh; do echo "== $$b"; bash "$$b" || exit 1; done

demo: setup
	@scripts/demo.sh

setup:
	@scripts/setup.sh

clean:
	$(SWIFT) package clean
	rm -rf bench/out demo-work .build-fuzz
