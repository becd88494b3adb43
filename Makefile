# PushPreview — the two commands in the README are `make demo` and `make test`.
SWIFT ?= swift
BIN := .build/release/pushpreview
SHARED ?= ../shared

.PHONY: deps build demo test bench fidelity fidelity-compare clean

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build -c release --product pushpreview

LOCALIZED := Examples/payloads/localized-boarding.apns Examples/payloads/localized-messages.apns
P := Examples/payloads

# Renders every Examples/ payload into Output/ for the project's devices (two iPhones, one iPad)
# in light and dark, the localized ones in six locales, and the review variants (--show-limits,
# --media-state playing, --hidden-previews). Remote media comes from a local server on
# 127.0.0.1:8765 (Examples/pushpreview.json allows that host), stopped afterwards.
demo: build
	@find Output -mindepth 1 ! -name .gitkeep -delete
	@rm -rf Examples/app-group/cache
	@python3 -m http.server 8765 --bind 127.0.0.1 --directory Examples/media >/dev/null 2>&1 & echo $$! > .demo-server.pid; sleep 0.5
	@status=0; \
	  $(BIN) render $(P)/*.apns --appearance light,dark --out Output >/dev/null || status=1; \
	  $(BIN) render $(LOCALIZED) --device iphone-15 --appearance light --locale en,nl,pl,tr,vi,tl --out Output >/dev/null || status=1; \
	  $(BIN) render $(P)/photo-tall.apns --show-limits --appearance light,dark --out Output >/dev/null || status=1; \
	  $(BIN) render $(P)/video-clip.apns $(P)/voice-note.apns --media-state playing --appearance light,dark --out Output >/dev/null || status=1; \
	  $(BIN) render $(P)/crew-message.apns --hidden-previews --appearance light,dark --out Output >/dev/null || status=1; \
	  kill $$(cat .demo-server.pid) 2>/dev/null; rm -f .demo-server.pid; \
	  echo "demo: $$(find Output -name '*.png' | wc -l) PNG mock-ups in Output/"; exit $$status

# The unit tests, then the fidelity check against Chromium (installed by deps) on the same
# debug build.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel
	@if command -v chromium >/dev/null; then $(MAKE) --no-print-directory fidelity-compare CONFIG=debug; \
	  else echo "fidelity: skipped, chromium is not installed (make deps installs it)"; fi

# Prints speed and memory numbers; targets are in the issues, never asserted in tests.
bench: deps
	$(SWIFT) build -c release --product pushpreview-bench
	.build/release/pushpreview-bench

# Our layout and pixels against headless Chromium's on Tests/Fixtures/layout (issue 3's targets).
FIDELITY_DIR ?= .build/fidelity
CONFIG ?= release
fidelity: deps
	$(SWIFT) build -c $(CONFIG) --product pushpreview-fidelity
	@$(MAKE) --no-print-directory fidelity-compare

fidelity-compare:
	@rm -rf $(FIDELITY_DIR)
	.build/$(CONFIG)/pushpreview-fidelity prepare $(FIDELITY_DIR)
	/usr/bin/python3 scripts/chromium-capture.py $(FIDELITY_DIR)
	.build/$(CONFIG)/pushpreview-fidelity compare $(FIDELITY_DIR)

clean:
	rm -rf .build
	@find Output -mindepth 1 ! -name .gitkeep -delete
