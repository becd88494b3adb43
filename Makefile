# PushPreview — the two commands in the README are `make demo` and `make test`.
SWIFT ?= swift
BIN := .build/release/pushpreview
SHARED ?= ../shared

.PHONY: deps build demo test bench clean

deps:
	@scripts/install-deps

build: deps
	$(SWIFT) build -c release --product pushpreview

# Renders every Examples/ payload into Output/.
demo: build
	@find Output -mindepth 1 ! -name .gitkeep -delete
	$(BIN) render Examples/payloads/*.apns --device iphone-15 --appearance light,dark --out Output

test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --parallel

# Prints speed and memory numbers; targets are in the issues, never asserted in tests.
bench: deps
	$(SWIFT) build -c release --product pushpreview-bench
	.build/release/pushpreview-bench

clean:
	rm -rf .build
	@find Output -mindepth 1 ! -name .gitkeep -delete
