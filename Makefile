# The two commands a newcomer needs: `make run` and `make test`.
# Everything else is meson; this file only strings the steps together.

BUILD ?= build
ASAN_BUILD ?= build-asan
MESON_FLAGS ?= --buildtype=debugoptimized
# Where the host has no wlroots 0.18 (Debian 12), every step runs in the
# Debian 13 root that scripts/deps makes; elsewhere it runs directly.
IN_ROOT = scripts/in-root

.PHONY: all deps build build-run run test test-ci test-first test-second test-asan \
	test-asan-quick format format-check bench clean fuzz fuzz-short soak \
	soak-short

all: build

deps:
	@scripts/deps

$(BUILD)/build.ninja:
	$(IN_ROOT) meson setup $(BUILD) $(MESON_FLAGS)

$(ASAN_BUILD)/build.ninja:
	$(IN_ROOT) meson setup $(ASAN_BUILD) --buildtype=debug -Db_sanitize=address,undefined -Db_lundef=false

build: deps $(BUILD)/build.ninja
	$(IN_ROOT) ninja -C $(BUILD)

# Only what running needs: fairway and its clients (meson's `run` alias),
# not the tests, wlcs or bench that `make build` and `make test` add.
build-run: deps $(BUILD)/build.ninja
	$(IN_ROOT) ninja -C $(BUILD) run

# A login session has XDG_RUNTIME_DIR; a bare root shell may not, so make a
# private one rather than refuse to start.
run: build-run
	@if [ -z "$$XDG_RUNTIME_DIR" ]; then \
		XDG_RUNTIME_DIR=/tmp/fairway-runtime-$$(id -u); \
		mkdir -p -m 700 "$$XDG_RUNTIME_DIR"; \
		echo "XDG_RUNTIME_DIR was unset; using $$XDG_RUNTIME_DIR"; \
		export XDG_RUNTIME_DIR; \
	fi; \
	exec $(IN_ROOT) $(BUILD)/compositor/fairway $(ARGS)

# What a newcomer runs: the format check and every test once, through the
# gate's default transport, within the time CONTRIBUTING.md allows it; the
# sanitizer builds belong to test-ci.
test: build format-check test-first

# What CI runs besides (.ci/run): the tests again by their second path
# (the socketpair transport, wlcs and the paused reader with the scheduler
# off, the lock through wlr_scene's pass, the hint attacks on every
# deployment), every suite under ASan+UBSan, a short fuzz run and a
# short soak. test-asan-quick is the scheduler library's share of
# test-asan, for a quick look at a change to scheduler/.
test-ci: test-second test-asan fuzz-short soak-short

# Every test once, by its first path (the default transport).
test-first:
	$(IN_ROOT) meson test -C $(BUILD) --print-errorlogs \
		--no-suite transport-socketpair --no-suite ci

test-second: build
	$(IN_ROOT) meson test -C $(BUILD) --print-errorlogs \
		--suite transport-socketpair --suite ci

ASAN_ENV = ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 \
	UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp

test-asan-quick: deps $(ASAN_BUILD)/build.ninja
	$(ASAN_ENV) $(IN_ROOT) meson test -C $(ASAN_BUILD) --print-errorlogs \
		--suite unit --suite gate --suite hostile \
		--no-suite transport-socketpair --no-suite compositor

test-asan: deps $(ASAN_BUILD)/build.ninja
	$(IN_ROOT) ninja -C $(ASAN_BUILD)
	$(ASAN_ENV) $(IN_ROOT) meson test -C $(ASAN_BUILD) --print-errorlogs

# clang-format from the root too: its output differs between versions.
format: deps
	git ls-files '*.c' '*.h' | $(IN_ROOT) xargs clang-format -i

format-check: deps
	@out=$$(git ls-files '*.c' '*.h' | $(IN_ROOT) xargs clang-format --dry-run 2>&1) || \
		{ echo "$$out"; exit 1; }; \
	bad=$$(echo "$$out" | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning: code should be clang-formatted.*/\1/p' | sort -u); \
	if [ -n "$$bad" ]; then echo "clang-format disagrees with:" $$bad; exit 1; fi

# A quick pass over all the bench scenarios (about 6 minutes on 2 cores);
# the full run is documented in bench/README.md.
bench: build
	scripts/deps --bench
	bench/run --quick --build $(BUILD)

# Fuzzing: FUZZ_SECONDS per target (make fuzz: 10 minutes each; the short
# run in make test-ci: 20 s each). Needs clang; skipped with a note without.
FUZZ_SECONDS ?= 600
fuzz: deps
	scripts/deps --ci
	$(IN_ROOT) scripts/fuzz-short $(FUZZ_SECONDS)

fuzz-short: deps
	scripts/deps --ci
	$(IN_ROOT) scripts/fuzz-short 20

# Soak under ASan+UBSan: SOAK_SECONDS (make soak: 10 minutes; make test-ci: 30 s).
SOAK_SECONDS ?= 600
soak: $(ASAN_BUILD)/build.ninja
	SOAK_BUILD=$(ASAN_BUILD) $(IN_ROOT) scripts/soak $(SOAK_SECONDS)

soak-short: $(ASAN_BUILD)/build.ninja
	SOAK_BUILD=$(ASAN_BUILD) $(IN_ROOT) scripts/soak 30

clean:
	rm -rf $(BUILD) $(ASAN_BUILD)
