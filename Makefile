# Makefile - builds the sudokud daemon, the sudoku CLI, the tests and the
# benchmarks. Non-recursive; objects under build/ (build/san/ when SANITIZE
# is set). `make run` and `make test` first install missing Debian packages.

PREFIX   ?= /usr/local
BINDIR   ?= $(PREFIX)/bin
SBINDIR  ?= $(PREFIX)/sbin
MANDIR   ?= $(PREFIX)/share/man
SYSCONFDIR ?= /etc
# Where systemd looks for units of packages (/lib/systemd/system on Debian 12).
UNITDIR  ?= $(or $(shell pkg-config --variable=systemdsystemunitdir systemd 2>/dev/null),/lib/systemd/system)
SHARED   ?= ../shared
CC       ?= cc
PKGS     := libmicrohttpd libcjson
# systemd: systemd-socket-activate for the daemon suite (test_main_systemd.c).
DEB_PKGS := build-essential pkg-config libmicrohttpd-dev libcjson-dev \
            libcmocka-dev libcurl4-openssl-dev systemd

ifeq ($(SANITIZE),)
B := build
else
B := build/san
SANFLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
endif

WARN := -Wall -Wextra -Wpedantic -Wshadow -Wstrict-prototypes -Wmissing-prototypes
ifeq ($(CI),true)
WARN += -Werror
endif

# Debian's hardening flags, as `DEB_BUILD_MAINT_OPTIONS=hardening=+all
# dpkg-buildflags` prints them on Debian 12 (dpkg 1.21): stack protector,
# format checks, FORTIFY, full RELRO (relro + now); PIE is gcc's default
# there and is spelled out for other compilers. Every build gets them, apart
# from CFLAGS, so that `make CFLAGS=-O0` cannot drop them. FORTIFY is left
# out of the sanitizer build: its checked copies bypass ASan's interceptors.
# `make image-test` checks the result in the image's binary (readelf).
HARDEN_CFLAGS   := -fstack-protector-strong -Wformat -Werror=format-security -fPIE
HARDEN_LDFLAGS  := -pie -Wl,-z,relro -Wl,-z,now
ifeq ($(SANITIZE),)
HARDEN_CPPFLAGS := -D_FORTIFY_SOURCE=2
endif

CFLAGS   ?= -O2 -g
CPPFLAGS += -D_GNU_SOURCE
# (The fuzzers' FUZZ_CFLAGS take none of HARDEN_*: they run under ASan.)
ALL_CFLAGS = -std=c11 $(WARN) $(CFLAGS) $(HARDEN_CPPFLAGS) $(HARDEN_CFLAGS) $(SANFLAGS) -pthread -MMD -MP
ALL_LDFLAGS = $(LDFLAGS) $(HARDEN_LDFLAGS) $(SANFLAGS) -pthread
# pkg-config runs once per make, here. `make run` and `make test` install the
# packages first and build in a sub-make, which reads these anew.
CJSON_CFLAGS := $(shell pkg-config --cflags libcjson 2>/dev/null)
MHD_CFLAGS   := $(shell pkg-config --cflags libmicrohttpd 2>/dev/null)
PKG_LIBS     := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
TEST_LIBS    := $(shell pkg-config --libs cmocka libcurl 2>/dev/null)

# The sources by layer, bottom up: a folder of src/ and one of include/ per
# layer. Each layer compiles with its own headers and those of the layers it
# may use, and tools/check-layers.sh (run before anything is compiled) refuses
# an #include that breaks the rule (docs/design.md "Layers").
#   engine  the solvers: classic, logic, generator, killer, generic (cover)
#   codec   JSON on the wire, the only code that sees cJSON
#   api     the route handlers, request in and reply out, no sockets
#   http    libmicrohttpd, event loops, jobs, the only code that sees it
#   service the settings (config), logs and metrics, on nothing else
#   daemon  main and the probe (--health-check)
#   cli     the sudoku command, on the engine alone
ENGINE_SRC := $(sort $(wildcard src/engine/*.c src/engine/*/*.c))
CODEC_SRC  := $(sort $(wildcard src/codec/*.c))
API_SRC    := $(sort $(wildcard src/api/*.c))
HTTP_SRC   := $(sort $(wildcard src/http/*.c))
SERVICE_SRC := $(sort $(wildcard src/service/*.c))
DAEMON_SRC := $(filter-out src/daemon/main.c,$(sort $(wildcard src/daemon/*.c)))
CLI_SRC    := $(sort $(wildcard src/cli/*.c))

INC_ENGINE := -Iinclude/engine
INC_CODEC  := $(INC_ENGINE) -Iinclude/codec $(CJSON_CFLAGS)
INC_API    := $(INC_CODEC) -Iinclude/api -Iinclude/service
INC_ALL    := $(INC_API) -Iinclude/http -Iinclude/daemon -Iinclude $(MHD_CFLAGS)
$(B)/obj/engine/%.o: LAYER_INC := $(INC_ENGINE)
$(B)/obj/codec/%.o:  LAYER_INC := $(INC_CODEC)
$(B)/obj/service/%.o: LAYER_INC := $(INC_ENGINE) -Iinclude/service -Iinclude
$(B)/obj/api/%.o:    LAYER_INC := $(INC_API)
$(B)/obj/http/%.o:   LAYER_INC := $(INC_ALL)
$(B)/obj/daemon/%.o: LAYER_INC := $(INC_ALL)
$(B)/obj/cli/%.o:    LAYER_INC := $(INC_ENGINE) -Iinclude

obj = $(1:src/%.c=$(B)/obj/%.o)
ENGINE_OBJ := $(call obj,$(ENGINE_SRC))
CLI_OBJ    := $(call obj,$(CLI_SRC))
# Everything the daemon links but main.c; the test runner links the same.
LIB_SRC    := $(ENGINE_SRC) $(CODEC_SRC) $(SERVICE_SRC) $(API_SRC) $(HTTP_SRC) \
              $(DAEMON_SRC)
LIB_OBJ    := $(call obj,$(LIB_SRC)) $(B)/obj/api/assets.o
TEST_SRC := $(wildcard tests/*.c)
TEST_OBJ := $(TEST_SRC:tests/%.c=$(B)/obj/tests/%.o)
BENCH_SRC := $(filter-out tests/bench/cover.c tests/bench/teach.c,$(wildcard tests/bench/*.c))
LAYER_OK := $(B)/layers.ok

.PHONY: all run test check install clean fmt fmt-check bench bench-http bench-batch bench-teach deps hostile \
        man units defaults
all: $(LAYER_OK) $(B)/sudokud $(B)/sudoku

# The layer rule, checked before any object is built (every object waits
# for it), again whenever a source or header changes.
$(LAYER_OK): tools/check-layers.sh $(shell find src include -name '*.[chS]')
	@mkdir -p $(@D)
	@tools/check-layers.sh
	@touch $@

# The solver's kernel per instruction set (src/engine/sudoku_avx2.c and
# sudoku_avx512.c include sudoku.c; it picks one at run time): each file gets
# the flags of its path, on x86-64 only. The rest of the build stays baseline.
ISA_AVX2   := -mavx2 -mbmi -mbmi2 -mpopcnt
ISA_AVX512 := $(ISA_AVX2) -mavx512f -mavx512bw -mavx512vl -mavx512vbmi
ifneq ($(filter x86_64%,$(shell $(CC) -dumpmachine)),)
%/engine/sudoku_avx2.o:   ISA_CFLAGS := $(ISA_AVX2)
%/engine/sudoku_avx512.o: ISA_CFLAGS := $(ISA_AVX512)
endif

$(B)/obj/%.o: src/%.c | $(LAYER_OK)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(LAYER_INC) $(ALL_CFLAGS) $(ISA_CFLAGS) -c -o $@ $<

$(B)/obj/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(INC_ALL) $(ALL_CFLAGS) -Itests -c -o $@ $<

# The spec is embedded in the binary with .incbin; see src/api/assets.S.
$(B)/obj/api/assets.o: src/api/assets.S openapi.yaml $(wildcard src/web/* src/web/js/*) | $(LAYER_OK)
	@mkdir -p $(@D)
	$(CC) -Wa,-I$(CURDIR) -c -o $@ src/api/assets.S

$(B)/sudokud: $(LIB_OBJ) $(B)/obj/daemon/main.o
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS) $(LDLIBS)

$(B)/sudoku: $(ENGINE_OBJ) $(CLI_OBJ)
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(LDLIBS)

# --wrap: tests/api_support.c counts the codec's cJSON parses per request.
$(B)/test_runner: $(LIB_OBJ) $(TEST_OBJ)
	$(CC) $(ALL_LDFLAGS) -Wl,--wrap=cJSON_ParseWithLengthOpts -o $@ $^ $(PKG_LIBS) $(TEST_LIBS) $(LDLIBS)

$(B)/bench_sudoku: $(BENCH_SRC) $(wildcard tests/bench/*.h) $(ENGINE_OBJ)
	$(CC) $(CPPFLAGS) $(INC_ENGINE) $(ALL_CFLAGS) -O2 -o $@ $(filter %.c %.o,$^) $(ALL_LDFLAGS) $(LDLIBS) -lm

# The generic engine's figures over tests/data/cover/ (tests/bench/cover.c).
$(B)/bench_cover: tests/bench/cover.c tests/cover_support.c tests/cover_support.h $(ENGINE_OBJ)
	$(CC) $(CPPFLAGS) $(INC_ENGINE) $(ALL_CFLAGS) -Itests -O2 -o $@ $(filter %.c %.o,$^) $(ALL_LDFLAGS) $(LDLIBS)

# The general logic engine's figures (tests/bench/teach.c): the share of
# each set /explain solves without the last resort, CPU, soundness.
$(B)/bench_teach: tests/bench/teach.c tests/cover_support.c tests/cover_support.h tests/level_check.c tests/level_check.h $(ENGINE_OBJ)
	$(CC) $(CPPFLAGS) $(INC_ENGINE) $(ALL_CFLAGS) -Itests -O2 -o $@ $(filter %.c %.o,$^) $(ALL_LDFLAGS) $(LDLIBS)

bench-teach: $(B)/bench_teach
	./$(B)/bench_teach $(SET)

# Installs the Debian packages the build needs when any is missing (as root),
# or prints the exact command to run.
deps:
	@missing=""; \
	for p in $(DEB_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing || exit 1; \
	  else \
	    echo "missing Debian packages; as root run:"; \
	    echo "  apt-get install -y --no-install-recommends$$missing"; exit 1; \
	  fi; \
	fi

run: deps
	@$(MAKE) --no-print-directory $(B)/sudokud
	exec ./$(B)/sudokud $(ARGS)

test check: deps
	@$(MAKE) --no-print-directory $(B)/test_runner $(B)/sudokud $(B)/sudoku
	SUDOKUD_BIN=./$(B)/sudokud SUDOKU_BIN=./$(B)/sudoku ./$(B)/test_runner $(SUITES)

# The hostile suite (tests/hostile/): raw-socket cases against the daemon
# (framing, ...), each checked for its status, its timing and whether the
# connection was closed, while a normal client is served on another
# connection. Needs python3 (Debian's is installed as root when missing).
# CASES=framing runs only tests/hostile/test_framing.py.
hostile: deps
	@command -v python3 >/dev/null || $(MAKE) --no-print-directory deps DEB_PKGS="$(DEB_PKGS) python3"
	@$(MAKE) --no-print-directory $(B)/sudokud
	python3 tests/hostile/run.py ./$(B)/sudokud $(CASES)

bench: deps
	@$(MAKE) --no-print-directory $(B)/bench_sudoku $(B)/bench_cover $(B)/sudoku $(B)/sudokud
	tests/bench/run.sh $(B) $(SHARED)/data

# sudokud against Debian's nginx under wrk, side by side (tests/bench/http/).
bench-http: deps
	@$(MAKE) --no-print-directory $(B)/sudokud $(B)/bench_bare_mhd
	tests/bench/http/run.sh $(B) $(SHARED)/data

# The HTTP library alone (fixed answer, sudokud's daemon flags), for the
# bench-http row that shows how much of the cost is libmicrohttpd's.
$(B)/bench_bare_mhd: tests/bench/http/bare_mhd.c
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(INC_ALL) $(ALL_CFLAGS) -o $@ $< $(PKG_LIBS) $(LDLIBS)

# POST /solve/batch against the CLI, and /solve latency while batches run.
bench-batch: deps
	@$(MAKE) --no-print-directory $(B)/sudokud $(B)/sudoku
	tests/bench/http/batch.sh $(B) $(SHARED)/data

# The mixed load of issue 28 (tests/bench/http/mix.py): easy /solve latency
# beside the dearest work, every request answered, RSS and descriptors
# flat; then the same with SIGTERM halfway. MIX_SECONDS (180) each.
MIX_SECONDS ?= 180
.PHONY: bench-mix
bench-mix: deps
	@$(MAKE) --no-print-directory $(B)/sudokud
	@command -v python3 >/dev/null || { echo "bench-mix needs python3"; exit 1; }
	python3 tests/bench/http/mix.py $(B)/sudokud tests/data/puzzles5_forum_hardest_1905_11+ --seconds $(MIX_SECONDS)
	python3 tests/bench/http/mix.py $(B)/sudokud tests/data/puzzles5_forum_hardest_1905_11+ --seconds $(MIX_SECONDS) --sigterm

# The daemon goes to sbin (its page is in section 8), the CLI to bin; the
# man pages, the units (ExecStart= says SBINDIR) and /etc/default/sudokud
# are made from the binaries and systemd/ (see "Debian package" below).
install: $(B)/sudokud $(B)/sudoku man units defaults
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(SBINDIR) $(DESTDIR)$(MANDIR)/man1 \
	  $(DESTDIR)$(MANDIR)/man8 $(DESTDIR)$(UNITDIR) $(DESTDIR)$(SYSCONFDIR)/default
	install -m 755 $(B)/sudoku $(DESTDIR)$(BINDIR)/
	install -m 755 $(B)/sudokud $(DESTDIR)$(SBINDIR)/
	install -m 644 $(B)/man/sudoku.1 $(DESTDIR)$(MANDIR)/man1/
	install -m 644 $(B)/man/sudokud.8 $(DESTDIR)$(MANDIR)/man8/
	install -m 644 $(B)/systemd/sudokud.service $(B)/systemd/sudokud.socket $(DESTDIR)$(UNITDIR)/
	install -m 644 $(B)/systemd/sudokud.default $(DESTDIR)$(SYSCONFDIR)/default/sudokud

# The C sources `make fmt` formats and `make fmt-check` (in .ci/run) holds
# to .clang-format.
FMT_SRC = src/*/*.c src/*/*.h src/engine/*/*.c src/engine/*/*.h \
          include/*.h include/*/*.h tests/*.c tests/*.h tests/bench/*.c \
          tests/bench/*.h tests/fuzz/*.c tests/tools/*.c

fmt:
	@command -v clang-format >/dev/null || $(MAKE) --no-print-directory deps DEB_PKGS="$(DEB_PKGS) clang-format"
	clang-format -i $(FMT_SRC)

fmt-check:
	@command -v clang-format >/dev/null || $(MAKE) --no-print-directory deps DEB_PKGS="$(DEB_PKGS) clang-format"
	clang-format --dry-run --Werror $(FMT_SRC)
	@echo "fmt-check: every C file is as .clang-format says"

clean:
	rm -rf build

-include $(shell find $(B)/obj -name '*.d' 2>/dev/null)

# --- fuzzing, valgrind, soak (begin) ---
# `make fuzz FUZZ_SECONDS=N` builds the libFuzzer targets of tests/fuzz/ with
# clang, ASan and UBSan into build/fuzz/ (the library without src/http/ and
# src/daemon/probe.c: no sockets) and runs each for N seconds on a scratch copy of
# its seed corpus (build/fuzz/corpus/<target>/, which keeps growing between
# runs), so tests/fuzz/corpus/ only changes by hand; crashes are written to
# build/fuzz/artifacts/<target>/. `make valgrind` runs the unit suites under
# memcheck; `make soak` drives the release daemon (tests/bench/soak.sh).
FUZZ_CC       ?= clang
FUZZ_SECONDS  ?= 60
FUZZ_DIR      := build/fuzz
FUZZ_DEB_PKGS := clang libclang-rt-14-dev
FUZZ_CFLAGS   := -std=c11 $(WARN) -g -O1 -fno-omit-frame-pointer -pthread \
                 -fsanitize=address,undefined -fno-sanitize-recover=all
FUZZ_LIB_SRC  := $(filter-out src/http/%.c src/daemon/probe.c,$(LIB_SRC))
FUZZ_LIB_OBJ  := $(FUZZ_LIB_SRC:src/%.c=$(FUZZ_DIR)/obj/%.o) $(FUZZ_DIR)/obj/api/assets.o
FUZZ_LIBS      = $(shell pkg-config --libs libcjson 2>/dev/null)
# Per target: longest input (api: the default --max-body, beyond which the
# http module answers 413 itself; sudoku: two boards' worth).
FUZZ_MAX_LEN_api    := 16384
FUZZ_MAX_LEN_sudoku := 256

.PHONY: fuzz fuzz-build valgrind soak

$(FUZZ_DIR)/obj/%.o: src/%.c | $(LAYER_OK)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(CPPFLAGS) $(INC_ALL) $(FUZZ_CFLAGS) $(ISA_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(FUZZ_DIR)/obj/api/assets.o: src/api/assets.S openapi.yaml $(wildcard src/web/* src/web/js/*)
	@mkdir -p $(@D)
	$(FUZZ_CC) -Wa,-I$(CURDIR) -c -o $@ src/api/assets.S

$(FUZZ_DIR)/fuzz_api: tests/fuzz/fuzz_api.c $(FUZZ_LIB_OBJ)
	$(FUZZ_CC) $(CPPFLAGS) $(INC_ALL) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(FUZZ_LIBS) $(LDLIBS)

$(FUZZ_DIR)/fuzz_sudoku: tests/fuzz/fuzz_sudoku.c \
    $(FUZZ_DIR)/obj/engine/sudoku.o $(FUZZ_DIR)/obj/engine/sudoku_avx2.o \
    $(FUZZ_DIR)/obj/engine/sudoku_avx512.o
	$(FUZZ_CC) $(CPPFLAGS) $(INC_ENGINE) $(FUZZ_CFLAGS) -fsanitize=fuzzer -o $@ $^ $(LDLIBS)

fuzz-build:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(DEB_PKGS) $(FUZZ_DEB_PKGS)"
	@$(MAKE) --no-print-directory $(FUZZ_DIR)/fuzz_api $(FUZZ_DIR)/fuzz_sudoku

# Both targets run at once (one core each), each for FUZZ_SECONDS, each
# into its own log, printed when both are done; the exit status is
# non-zero if either failed.
fuzz: fuzz-build
	@for t in api sudoku; do \
	  work=$(FUZZ_DIR)/corpus/$$t; art=$(FUZZ_DIR)/artifacts/$$t; \
	  mkdir -p $$work $$art && cp tests/fuzz/corpus/$$t/* $$work/ || exit 1; \
	  echo "fuzz_$$t: $(FUZZ_SECONDS) s, corpus $$work, log $(FUZZ_DIR)/fuzz_$$t.log"; \
	  case $$t in api) len=$(FUZZ_MAX_LEN_api);; *) len=$(FUZZ_MAX_LEN_sudoku);; esac; \
	  { ./$(FUZZ_DIR)/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -max_len=$$len \
	      -timeout=10 -print_final_stats=1 -artifact_prefix=$$art/ $$work \
	      >$(FUZZ_DIR)/fuzz_$$t.log 2>&1; echo $$? >$(FUZZ_DIR)/fuzz_$$t.rc; } & \
	done; wait; status=0; for t in api sudoku; do \
	  echo "===== fuzz_$$t"; tail -n 40 $(FUZZ_DIR)/fuzz_$$t.log; \
	  [ "$$(cat $(FUZZ_DIR)/fuzz_$$t.rc)" = 0 ] || \
	    { echo "fuzz_$$t FAILED: see $(FUZZ_DIR)/artifacts/$$t/"; status=1; }; \
	done; exit $$status

# The unit suites (the runner refuses names it does not know); http, main and
# cli start the daemon or the CLI and run under ASan instead
# (make SANITIZE=address,undefined test).
# Not the logic engine's suites, nor generation's: they walk whole puzzle
# sets (18 s of CPU natively, tens of minutes under memcheck) or run
# against a 2 s generation budget that memcheck's slowdown exhausts; the
# sanitizer build covers them.
VALGRIND_SUITES ?= sudoku codec config log metrics api

valgrind:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(DEB_PKGS) valgrind"
	@$(MAKE) --no-print-directory SANITIZE= build/test_runner
	valgrind --leak-check=full --errors-for-leak-kinds=definite,indirect \
	  --error-exitcode=1 build/test_runner $(VALGRIND_SUITES)

soak:
	@$(MAKE) --no-print-directory deps
	@$(MAKE) --no-print-directory SANITIZE= build/sudokud
	SUDOKUD_BIN=build/sudokud tests/bench/soak.sh

-include $(shell find $(FUZZ_DIR)/obj -name '*.d' 2>/dev/null)
# --- fuzzing, valgrind, soak (end) ---

# --- browser test (begin) ---
# `make test-browser` drives the demo page (src/web/, embedded in
# build/sudokud) in Debian's chromium with playwright-core from npm:
# tests/browser/test.js (with harness.js and cases_*.js) starts the daemon
# on a free port, types, pastes and clicks, and saves screenshots in
# build/browser/. chromium is installed when missing (as root; otherwise the
# apt-get line is printed). `npm ci` runs on a
# copy of tests/browser/package{,-lock}.json in build/browser/, so
# node_modules stays out of the source tree; it reruns when the lock changes.
BROWSER_DIR := build/browser

.PHONY: test-browser

$(BROWSER_DIR)/node_modules/.installed: tests/browser/package.json tests/browser/package-lock.json
	@command -v npm >/dev/null || { echo "make test-browser needs Node.js 20 or later and npm"; exit 1; }
	@mkdir -p $(BROWSER_DIR)
	cp tests/browser/package.json tests/browser/package-lock.json $(BROWSER_DIR)/
	cd $(BROWSER_DIR) && npm ci --no-audit --no-fund --loglevel=error
	@touch $@

test-browser:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(DEB_PKGS) chromium"
	@$(MAKE) --no-print-directory SANITIZE= build/sudokud $(BROWSER_DIR)/node_modules/.installed
	NODE_PATH=$(BROWSER_DIR)/node_modules SUDOKUD_BIN=build/sudokud BROWSER_OUT=$(BROWSER_DIR) \
	  PAGE_SHOTS=$(PAGE_SHOTS) \
	  node tests/browser/test.js $(CASE)
# --- browser test (end) ---

# --- API contract (begin) ---
# `make contract-test` lints openapi.yaml (warnings fail), generates a
# TypeScript client from it, compiles it with tsc --strict and runs it
# against the daemon, validating every answer against the spec
# (tests/contract/run.sh; npm packages in build/contract/).
.PHONY: contract-test
contract-test: deps
	@$(MAKE) --no-print-directory SANITIZE= build/sudokud
	tests/contract/run.sh build/sudokud
# --- API contract (end) ---

# --- container and gateway (begin) ---
# `make image-test` builds the image (Dockerfile) with Debian's docker engine,
# started by hand when it is not running, making debian:bookworm-slim with
# debootstrap when it is missing, tags it sudokud:<SUDOKUD_VERSION of
# include/version.h> and sudokud:latest, writes its SBOM to
# build/image/sbom.spdx.json, and checks it and docker/compose.yaml
# (docker/test-image.sh; a few minutes; COMPOSE=0 skips compose).
# `make image-lock` rewrites docker/runtime.lock, the runtime packages the
# image pins, from the archive as it is now (docker/lock-runtime.sh).
# `make gateway-test` runs Debian's nginx with docker/gateway/ in front of
# three build/sudokud processes on 127.0.0.1 (docker/test-gateway.sh, 20-30 s).
# `make k8s-check` checks docker/k8s/ offline (docker/check-k8s.sh; npm
# packages in build/k8s-check/). Each script installs what it lacks, as root,
# and ends with "<name>: N passed, N failed".
.PHONY: image-test image-lock gateway-test k8s-check

image-test:
	docker/test-image.sh

image-lock:
	docker/lock-runtime.sh

gateway-test: deps
	@$(MAKE) --no-print-directory SANITIZE= build/sudokud
	SUDOKUD_BIN=build/sudokud docker/test-gateway.sh

# Uses build/sudokud --help, when built, to check the variables the
# Deployment sets.
k8s-check:
	SUDOKUD_BIN=build/sudokud docker/check-k8s.sh
# --- container and gateway (end) ---

# --- killer puzzles (begin) ---
# `make killer-puzzles` rebuilds tests/data/killer_puzzles with
# tests/tools/killer_gen.c: killer puzzles with exactly one solution, cut
# from the solved grids of tests/data/test_puzzles_with_solutions by seeded
# random walks (the same file on every run for the same count and seed).
KILLER_COUNT ?= 100
KILLER_SEED  ?= 1

.PHONY: killer-puzzles

$(B)/killer_gen: tests/tools/killer_gen.c $(ENGINE_OBJ)
	$(CC) $(CPPFLAGS) $(INC_ENGINE) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(LDLIBS)

killer-puzzles: $(B)/killer_gen
	./$(B)/killer_gen tests/data/test_puzzles_with_solutions $(KILLER_COUNT) \
	  $(KILLER_SEED) > tests/data/killer_puzzles
# --- killer puzzles (end) ---

# --- generic engine data (begin) ---
# `make cover-data` rebuilds the sets of tests/data/cover/ (README there)
# with tests/tools/cover_gen.c: COVER_COUNT unique puzzles per set from
# cover_generate, seeds 1.. (the same files on every run).
COVER_COUNT ?= 200
COVER_SETS  ?= size4 size6 size8 size12 size16 size25 diagonal9 jigsaw9 \
               hyper9 antiknight9 antiking9

.PHONY: cover-data

$(B)/cover_gen: tests/tools/cover_gen.c tests/cover_support.c tests/cover_support.h $(ENGINE_OBJ)
	$(CC) $(CPPFLAGS) $(INC_ENGINE) $(ALL_CFLAGS) -Itests -o $@ $(filter %.c %.o,$^) $(ALL_LDFLAGS) $(LDLIBS)

cover-data: $(B)/cover_gen
	@mkdir -p tests/data/cover
	for s in $(COVER_SETS); do \
	  ./$(B)/cover_gen $$s $(COVER_COUNT) 1 > tests/data/cover/$$s || exit 1; \
	done
# --- generic engine data (end) ---

# --- benchmarks in CI (begin) ---
# `make bench-smoke` runs every benchmark script once, briefly and on the
# 150-puzzle samples of tests/data (in the layout of ../shared/data), so that
# a broken benchmark cannot land (.ci/run runs it); its figures mean
# nothing. The real figures: make bench, bench-http, bench-batch and soak
# on a quiet machine (docs/performance.md). pool_cost.c is only built here
# (its loops take half a minute), shidoku_singles.c run on its two quick
# rule sets (plain 4x4 takes 40 s: docs/logic.md); serate_compare.sh is not run: it needs
# skfr and Sudoku Explainer, built outside the tree (docs/rating.md).
SMOKE := build/bench-smoke
.PHONY: bench-smoke
bench-smoke:
	@mkdir -p $(SMOKE)/data
	cp tests/data/puzzles* tests/data/test_puzzles_with_solutions $(SMOKE)/data/
	TEXTBOOK_CAP=1 CLI_REPS=1 $(MAKE) --no-print-directory bench SHARED=$(SMOKE)
	BENCH_SECONDS=1 BENCH_REPEATS=1 $(MAKE) --no-print-directory bench-http SHARED=$(SMOKE)
	BATCH_PUZZLES=150 $(MAKE) --no-print-directory bench-batch SHARED=$(SMOKE)
	SOAK_SECONDS=6 SOAK_WARMUP=2 SOAK_INTERVAL=2 $(MAKE) --no-print-directory soak
	MIX_SECONDS=6 $(MAKE) --no-print-directory bench-mix
	$(MAKE) --no-print-directory $(B)/bench_teach
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(DEB_PKGS) valgrind"
	tests/bench/http/callgrind.sh $(B) 4 1 2
	tests/bench/http/cachesim.sh $(B)/sudokud 4 1 2 5
	BENCH_SECONDS=1 BENCH_REPEATS=1 tests/bench/http/ab.sh 8 $(B) $(B)
	$(CC) -O2 -o $(SMOKE)/pool_cost tests/bench/http/pool_cost.c
	$(CC) -O2 -o $(SMOKE)/shidoku_singles tests/tools/shidoku_singles.c
	$(SMOKE)/shidoku_singles n && $(SMOKE)/shidoku_singles k
	$(MAKE) --no-print-directory $(B)/serate_tool
	grep -v '^#' tests/data/se/17clue | head -n 20 > $(SMOKE)/se17
	tests/tools/serate_same_steps.sh $(B)/serate_tool $(B)/serate_tool $(SMOKE)/se17
	tests/tools/serate_ab.sh $(B)/serate_tool $(B)/serate_tool $(SMOKE)/se17
	@echo "bench-smoke: every benchmark script ran to its end"
# --- benchmarks in CI (end) ---

# --- Debian package and systemd (begin) ---
# `make man` writes sudokud(8) and sudoku(1) into $(B)/man/ from the
# templates of docs/man/ and the binaries' own --help (tools/make-man.sh),
# and fails when groff -ww warns or an option of --help is not in a page.
# `make units` writes $(B)/systemd/ (ExecStart= at SBINDIR) and
# `make defaults` /etc/default/sudokud from the option table (every
# variable, commented out at its default). `make unit-check` holds
# `systemd-analyze security --offline=true` of the service to an exposure
# of UNIT_EXPOSURE_MAX at most. `make deb` builds the package with
# dpkg-buildpackage (debhelper 13, dh_installsystemd) in a copy of the tree
# under build/deb/, puts sudokud_<version>_<arch>.deb in build/deb/, and
# runs lintian (errors and warnings fail; the justified ones are in
# debian/sudokud.lintian-overrides). `make deb-test` installs the package
# in a clean Debian 12 root (debootstrap, kept in build/debroot/), checks
# it and purges it, and fails if a file is left behind
# (tools/deb-install-test.sh). Each installs what it lacks (as root).
DEB_TOOLS         := debhelper devscripts dpkg-dev fakeroot lintian groff-base
UNIT_EXPOSURE_MAX := 2.0
VERSION           := $(shell sed -n 's/^\#define SUDOKUD_VERSION "\(.*\)"/\1/p' include/version.h)
DEB_ARCH          := $(shell dpkg --print-architecture 2>/dev/null)
DEB_FILE          := build/deb/sudokud_$(VERSION)_$(DEB_ARCH).deb

.PHONY: unit-check deb deb-test

$(B)/man/sudokud.8: docs/man/sudokud.8.in tools/make-man.sh $(B)/sudokud
	@mkdir -p $(@D)
	tools/make-man.sh daemon $< $(B)/sudokud $@

$(B)/man/sudoku.1: docs/man/sudoku.1.in tools/make-man.sh $(B)/sudoku
	@mkdir -p $(@D)
	tools/make-man.sh cli $< $(B)/sudoku $@

# Rewritten when SBINDIR differs from the last build's (a stamp per value).
$(B)/systemd/sudokud.service: systemd/sudokud.service.in $(B)/systemd/sbindir-$(subst /,_,$(SBINDIR))
	sed 's|@SBINDIR@|$(SBINDIR)|g' $< > $@

$(B)/systemd/sbindir-%:
	@mkdir -p $(@D)
	@rm -f $(@D)/sbindir-*
	@touch $@

$(B)/systemd/sudokud.socket: systemd/sudokud.socket
	@mkdir -p $(@D)
	cp $< $@

# Each option's help line, then its variable commented out at its default.
$(B)/systemd/sudokud.default: systemd/sudokud.default.head $(B)/sudokud
	@mkdir -p $(@D)
	{ cat $<; $(B)/sudokud --help | awk '/^  --/ { \
	    env = substr($$0, 32, 17); text = substr($$0, 49); sub(/ +$$/, "", env); \
	    if (env == "") next; def = ""; \
	    if (match(text, /\(default [^)]*\)$$/)) def = substr(text, RSTART + 9, RLENGTH - 10); \
	    printf "\n# %s\n#%s=%s\n", text, env, def }'; } > $@

man: $(B)/man/sudokud.8 $(B)/man/sudoku.1
units: $(B)/systemd/sudokud.service $(B)/systemd/sudokud.socket
defaults: $(B)/systemd/sudokud.default

unit-check: $(B)/systemd/sudokud.service $(B)/systemd/sudokud.socket
	@command -v systemd-analyze >/dev/null || $(MAKE) --no-print-directory deps DEB_PKGS=systemd
	@cd $(B)/systemd && systemd-analyze security --offline=true --no-pager sudokud.service > security.txt 2>&1 || true
	@score=$$(sed -n 's/.*Overall exposure level for sudokud.service: \([0-9.]*\).*/\1/p' $(B)/systemd/security.txt); \
	  [ -n "$$score" ] || { cat $(B)/systemd/security.txt; echo "unit-check: no score"; exit 1; }; \
	  echo "unit-check: systemd-analyze security --offline=true: exposure $$score (at most $(UNIT_EXPOSURE_MAX))"; \
	  awk -v s="$$score" -v m="$(UNIT_EXPOSURE_MAX)" 'BEGIN { exit !(s <= m) }' || \
	  { grep '✗' $(B)/systemd/security.txt; exit 1; }

deb:
	@$(MAKE) --no-print-directory deps DEB_PKGS="$(DEB_PKGS) $(DEB_TOOLS)"
	@v=$$(dpkg-parsechangelog -l debian/changelog -S Version); [ "$$v" = "$(VERSION)" ] || \
	  { echo "deb: debian/changelog is at $$v, include/version.h at $(VERSION)"; exit 1; }
	rm -rf build/deb && mkdir -p build/deb/src/sudokud-$(VERSION)
	git ls-files -z --cached --others --exclude-standard | \
	  xargs -0 sh -c 'for f; do [ -e "$$f" ] && printf "%s\0" "$$f"; done' sh | \
	  tar -c --null -T - | tar -x -C build/deb/src/sudokud-$(VERSION)
	cd build/deb/src/sudokud-$(VERSION) && dpkg-buildpackage -b -us -uc > ../build.log 2>&1 || \
	  { tail -40 ../build.log; exit 1; }
	mv build/deb/src/*.deb build/deb/src/*.buildinfo build/deb/src/*.changes build/deb/
	dpkg-deb -c $(DEB_FILE)
	lintian --info --display-info --fail-on error,warning $(DEB_FILE)
	@echo "deb: $(DEB_FILE), lintian clean (see debian/sudokud.lintian-overrides)"

deb-test:
	@[ -f $(DEB_FILE) ] || $(MAKE) --no-print-directory deb
	@$(MAKE) --no-print-directory deps DEB_PKGS="debootstrap"
	tools/deb-install-test.sh $(DEB_FILE) build/debroot
# --- Debian package and systemd (end) ---

# --- SE rater (begin) ---
# tests/tools/serate_tool.c rates puzzles from stdin as SE 1.2.1.3's serate
# does (docs/rating.md); `make serate-check` compares it with the SE-rated
# samples of tests/data/se/.
$(B)/serate_tool: tests/tools/serate_tool.c $(ENGINE_OBJ)
	$(CC) $(CPPFLAGS) $(INC_ENGINE) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDFLAGS) $(LDLIBS)

.PHONY: serate-check
serate-check: $(B)/serate_tool
	@for f in tests/data/se/17clue tests/data/se/generated tests/data/se/magictour \
	          tests/data/se/forum; do \
	  [ -s $$f ] || continue; \
	  ./$(B)/serate_tool < $$f | paste -d' ' $$f - | awk -v f=$$f \
	    '{ n++; if ($$2 == $$4) ok++; else print "  " $$1 " SE " $$2 " ours " $$4; \
	       ms += $$5 } END { printf "%s: %d/%d exact ER/EP/ED, %.2f ms CPU per puzzle\n", \
	       f, ok, n, ms / n }'; \
	done
# --- SE rater (end) ---
