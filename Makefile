# PushPreview — the two commands in the README are `make demo` and `make test`.
SWIFT ?= swift
BIN := .build/release/pushpreview
# Every release build links the Swift runtime and Foundation into the executable, so what make
# install and make deb ship runs without the toolchain (nothing from /opt/swift), and so the
# release builds of build, deb, bench and fidelity are one build, not one per set of flags.
RELEASE := -c release --static-swift-stdlib
SHARED ?= ../shared

.PHONY: deps build install deb check-deb ci-recipes demo test slow-clients bench fidelity fidelity-compare fidelity-record fidelity-wpt fuzz fuzz-smoke sanitizers clean

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build $(RELEASE) --product pushpreview

# PREFIX/bin/pushpreview and PREFIX/share/pushpreview/ (found relative to the executable), under
# DESTDIR when packaging.
PREFIX ?= /usr/local
DESTDIR ?=
install: build
	@scripts/install-files $(BIN) "$(DESTDIR)" "$(PREFIX)"

# pushpreview_VERSION_ARCH.deb from make build's executable (the Swift runtime linked in),
# Depends from what it links.
deb: build
	@scripts/make-deb $(BIN)

# The package built and installed in a clean Debian 12 root (debootstrap, cached in .build/): it
# must run there with nothing from the toolchain, render the same bytes as the checkout, and
# leave nothing after apt purge. make test runs it when the packaging files changed since the
# run recorded in scripts/check-deb.sha256.
check-deb: deb
	@scripts/check-deb $(BIN)

# ci/'s recipes against GitHub's and GitLab's published schemas, actionlint and our rules.
ci-recipes: deps
	@scripts/check-ci-recipes

# The Examples gallery: every payload for the project's devices (two iPhones, one iPad) in light
# and dark, localized payloads in each of the project's six locales, with the review views
# (clipped views drawn whole, media playing, hidden previews) → Output/index.html. Remote media
# comes from a local server on 127.0.0.1:8765 (allowed in Examples/pushpreview.json).
demo: build
	@find Output -mindepth 1 ! -name .gitkeep -delete
	@rm -rf Examples/app-group/cache
	@python3 -m http.server 8765 --bind 127.0.0.1 --directory Examples/media >/dev/null 2>&1 & echo $$! > .demo-server.pid; sleep 0.5
	@status=0; $(BIN) gallery Examples --out Output || status=$$?; \
	  kill $$(cat .demo-server.pid) 2>/dev/null; rm -f .demo-server.pid; exit $$status

# The unit tests, then the fidelity check against Chromium (installed by deps) on the same
# debug build.
test: deps
	@scripts/lint-file-access
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel
	/usr/bin/python3 scripts/chrome-truth.py .build/debug/pushpreview
	@if command -v chromium >/dev/null; then $(MAKE) --no-print-directory fidelity-compare CONFIG=debug; \
	  else echo "fidelity: skipped, chromium is not installed (make deps installs it)"; fi
	@$(MAKE) --no-print-directory fuzz-smoke
	@$(MAKE) --no-print-directory slow-clients
	@scripts/check-ci-recipes
	@if scripts/check-deb --changed; then $(MAKE) --no-print-directory check-deb; \
	  else echo "check-deb: skipped, the packaging files are as scripts/check-deb.sha256 records (make check-deb runs it)"; fi

# serve against slow, silent and too many clients (and Debian's slowhttptest), each attack for
# SLOW_SECONDS while a well-behaved client is answered within 1 s, then Ctrl-C within 1 s.
SLOW_SECONDS ?= 12
slow-clients:
	/usr/bin/python3 scripts/slow-clients.py .build/debug/pushpreview --seconds $(SLOW_SECONDS)

# A few hundred cases per fuzz target, a few mutated projects through gallery, a few mutated
# repositories through init and gallery, and a few hundred mutated requests against serve, with
# the real CLI: the short form of make fuzz.
fuzz-smoke:
	FUZZ_RUNS=300 scripts/fuzz
	/usr/bin/python3 scripts/mutate-projects.py .build/debug/pushpreview fuzz-crashes/projects --cases 8
	/usr/bin/python3 scripts/mutate-repositories.py .build/debug/pushpreview fuzz-crashes/repositories --cases 6
	/usr/bin/python3 scripts/fuzz-serve.py .build/debug/pushpreview fuzz-crashes --cases 300

# The fuzzers for FUZZ_SECONDS each (default 600), then whole projects and repositories mutated
# for as long each;
# crashers land in fuzz-crashes/ (each then belongs in Tests/Fixtures/fuzz/TARGET/).
FUZZ_SECONDS ?= 600
fuzz: deps
	$(SWIFT) build $(RELEASE) --product pushpreview
	FUZZ_SECONDS=$(FUZZ_SECONDS) scripts/fuzz
	/usr/bin/python3 scripts/mutate-projects.py .build/release/pushpreview fuzz-crashes/projects --seconds $(FUZZ_SECONDS)
	/usr/bin/python3 scripts/mutate-repositories.py .build/release/pushpreview fuzz-crashes/repositories --seconds $(FUZZ_SECONDS)
	/usr/bin/python3 scripts/fuzz-serve.py .build/release/pushpreview fuzz-crashes --seconds $(FUZZ_SECONDS)

# The unit tests under AddressSanitizer and under ThreadSanitizer (the gallery's lanes share a
# pixel cache), each in a build folder of its own.
sanitizers: deps
	ASAN_OPTIONS=detect_leaks=0 SWIFT_BACKTRACE=enable=no $(SWIFT) test --sanitize=address --scratch-path .build-asan --parallel
	SWIFT_BACKTRACE=enable=no $(SWIFT) test --sanitize=thread --scratch-path .build-tsan --parallel

# Prints speed and memory numbers; targets are in the issues, never asserted in tests.
bench: deps
	$(SWIFT) build $(RELEASE) --product pushpreview
	$(SWIFT) build $(RELEASE) --product pushpreview-bench
	.build/release/pushpreview-bench
	/usr/bin/python3 scripts/bench-serve.py .build/release/pushpreview

# Our layout and pixels against headless Chromium started at each real device scale on
# Tests/Fixtures/layout (each fixture at 2 and at 3; issue 3's targets),
# and on Yoga's fixtures (issue 13's: 97% of cases in each direction).
FIDELITY_DIR ?= .build/fidelity
CONFIG ?= release
fidelity: deps
	$(SWIFT) build -c $(CONFIG) $(if $(filter release,$(CONFIG)),--static-swift-stdlib) --product pushpreview-fidelity
	@$(MAKE) --no-print-directory fidelity-compare

# Then Yoga's gentest fixtures (589 flexbox cases from $(SHARED)/conformance/yoga, skipped with a
# message when absent), every node in both directions, against the same Chromium.
fidelity-compare:
	@rm -rf $(FIDELITY_DIR) $(FIDELITY_DIR)-yoga
	.build/$(CONFIG)/pushpreview-fidelity prepare $(FIDELITY_DIR)
	/usr/bin/python3 scripts/chromium-capture.py $(FIDELITY_DIR)
	.build/$(CONFIG)/pushpreview-fidelity compare $(FIDELITY_DIR)
	SHARED=$(SHARED) .build/$(CONFIG)/pushpreview-fidelity yoga-prepare $(FIDELITY_DIR)-yoga
	/usr/bin/python3 scripts/chromium-capture.py $(FIDELITY_DIR)-yoga
	.build/$(CONFIG)/pushpreview-fidelity yoga-compare $(FIDELITY_DIR)-yoga
	@$(MAKE) --no-print-directory fidelity-wpt

# Then the conformance sample (Tests/Fixtures/wpt/sample.txt: its rule, source repository and
# commit, folders and paths; never the tests themselves), read from a local git copy of the W3C
# CSS test suite (WPT=…, else $(SHARED)/conformance/csswg-test, else .build/wpt-git), else from
# the sample's own files in $(SHARED)/conformance/csswg-test-sample (what CI has), and skipped
# with a message saying how to get one when there is none. It is laid out at each device scale
# of WPT_SCALES, ours and Chromium's (started at that real scale), and fails below WPT_FLOOR
# tests within 0.5 pt at any of them. The floor is the count of the latest whole run (2026-12-04,
# 101 of 163 at real scale 3 and at 2, debug, after layout at the device's scale and issue 37's
# silent misses; 0 silent misses) minus 3; raise it as the engine gains.
WPT_FLOOR ?= 98
WPT_SCALES ?= 3 2
fidelity-wpt:
	@rm -rf $(FIDELITY_DIR)-wpt
	@status=0; SHARED=$(SHARED) /usr/bin/python3 scripts/wpt-sample.py extract $(FIDELITY_DIR)-wpt/src || status=$$?; \
	  if [ $$status = 3 ]; then exit 0; elif [ $$status != 0 ]; then exit $$status; fi; \
	  for scale in $(WPT_SCALES); do \
	    rm -rf $(FIDELITY_DIR)-wpt/case-*; \
	    WPT_SCALE=$$scale SHARED=$(SHARED) .build/$(CONFIG)/pushpreview-fidelity wpt-prepare $(FIDELITY_DIR)-wpt && \
	    /usr/bin/python3 scripts/chromium-capture.py $(FIDELITY_DIR)-wpt && \
	    WPT_SCALE=$$scale WPT_FLOOR=$(WPT_FLOOR) .build/$(CONFIG)/pushpreview-fidelity wpt-compare $(FIDELITY_DIR)-wpt || exit 1; \
	  done

# Chromium's boxes, page heights and computed styles for every fixture at device scales 2 and 3
# (Chromium started at each real scale), into the checked-in
# Tests/Fixtures/layout/expected/SCALEx/NAME.json that the LayoutTests and StylingTests targets
# compare our engine with on every `swift test`, browser or not. Run it after adding or changing a
# fixture, and commit what it writes (the same Chromium writes the same bytes).
fidelity-record: deps
	$(SWIFT) build -c $(CONFIG) $(if $(filter release,$(CONFIG)),--static-swift-stdlib) --product pushpreview-fidelity
	@rm -rf $(FIDELITY_DIR)-record
	.build/$(CONFIG)/pushpreview-fidelity prepare $(FIDELITY_DIR)-record
	/usr/bin/python3 scripts/fidelity-record.py $(FIDELITY_DIR)-record Tests/Fixtures/layout

clean:
	rm -rf .build
	@find Output -mindepth 1 ! -name .gitkeep -delete
