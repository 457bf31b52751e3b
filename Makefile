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

.PHONY: all build release test check lint man-lint man-options completions-check completions \
	format-lint install uninstall bench demo setup clean help fuzz fuzz-build fuzz-check

all: release

help:
	@echo "make            build release binaries"
	@echo "make demo       run the whole story against the bundled Immich test server"
	@echo "make check      build, run every test, lint man pages, completions and formatting"
	@echo "make test       build and run the tests only"
	@echo "make install    install binaries, man pages and completions (PREFIX=$(PREFIX))"
	@echo "make uninstall  remove what install put there"
	@echo "make bench      run the benchmarks (docs/BENCHMARKS.md)"
	@echo "make fuzz       fuzz every reader for FUZZ_TIME seconds each (docs/FUZZING.md)"
	@echo "make completions  regenerate completions/ from the built binaries"

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

# Tests run the built binaries through real pipes, so build everything first.
test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

check: test lint fuzz-check

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

install: release
	install -d $(BINDIR) $(MANDIR)/man1 $(MANDIR)/man5 $(MANDIR)/man7 $(BASHDIR) $(ZSHDIR) $(FISHDIR)
	for t in $(TOOLS); do install -m 0755 "$(RELEASE_BIN)/$$t" $(BINDIR)/; done
	install -m 0644 man/cairn-*.1 $(MANDIR)/man1/
	install -m 0644 man/*.5 $(MANDIR)/man5/
	install -m 0644 man/*.7 $(MANDIR)/man7/
	for t in $(TOOLS); do \
	  install -m 0644 completions/bash/$$t $(BASHDIR)/$$t; \
	  install -m 0644 completions/zsh/_$$t $(ZSHDIR)/_$$t; \
	  install -m 0644 completions/fish/$$t.fish $(FISHDIR)/$$t.fish; \
	done

uninstall:
	for t in $(TOOLS); do \
	  rm -f $(BINDIR)/$$t $(MANDIR)/man1/$$t.1 $(BASHDIR)/$$t $(ZSHDIR)/_$$t $(FISHDIR)/$$t.fish; \
	done
	rm -f $(MANDIR)/man5/cairn-records.5 $(MANDIR)/man7/cairn.7

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
