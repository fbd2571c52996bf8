# Quinto — build, test and benchmark.
#   make               pbrain-quinto (and quinto-manager) at the top, optimised
#   make test          build and run every test (unit, rules on tests/data, end-to-end);
#                      installs Check, pkg-config and tmux with apt-get when it may
#   make install       pbrain-quinto and quinto-manager in PREFIX/bin, the openings
#                      in PREFIX/share/quinto/openings (PREFIX=/usr/local)
#   make sanitize      the same tests built with -fsanitize=address,undefined
#   make debug         an -O0 -g3 build with assertions (consistency checks after every move)
#   make bench         play/undo micro-benchmark and the search bench
#   make fuzz          libFuzzer targets (clang) for FUZZ_SECONDS each (default 60)
#   make clean
# CC=clang make works the same; CFLAGS=... adds flags (make CFLAGS=-Werror).
# Check (libcheck) is needed for the tests only.

CC       ?= cc
CSTD     := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN     := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes
OPT      ?= -O3 -DNDEBUG
USER_CFLAGS := $(CFLAGS)
override CFLAGS += $(CSTD) $(WARN) $(OPT) -pthread -MMD -MP
override LDLIBS += -pthread -lm
PREFIX   ?= /usr/local
TESTDATA := $(abspath tests/data)
OPENINGS := $(abspath tournaments/openings)

BUILD    ?= build/release
ifeq ($(SANITIZE),1)
  BUILD  := build/sanitize
  OPT    := -O1 -g -fno-omit-frame-pointer
  override CFLAGS += -fsanitize=address,undefined -fno-sanitize-recover=undefined
  override LDFLAGS += -fsanitize=address,undefined
endif
ifeq ($(DEBUG),1)
  BUILD  := build/debug
  OPT    := -O0 -g3 -DQUINTO_PARANOID
endif

GIT_REV  := $(shell git describe --always --dirty --abbrev=7 --exclude='*' 2>/dev/null || echo unknown)
override CFLAGS += -DQUINTO_REV=\"$(GIT_REV)\"

LIB_SRC  := $(wildcard brain/*.c eval/*.c search/*.c) $(filter-out protocol/main.c,$(wildcard protocol/*.c))
MGR_SRC  := $(filter-out tournaments/main.c,$(wildcard tournaments/*.c))
TEST_SRC := $(wildcard tests/check_*.c) tests/testutil.c
LIB_OBJ  := $(LIB_SRC:%.c=$(BUILD)/%.o)
MGR_OBJ  := $(MGR_SRC:%.c=$(BUILD)/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
HAVE_MGR := $(wildcard tournaments/main.c)

PROGRAMS := pbrain-quinto $(if $(HAVE_MGR),quinto-manager)
TOP      := $(if $(filter build/release,$(BUILD)),,$(BUILD)/)

.PHONY: all test run-tests sanitize debug bench clean check-deps play watch match install uninstall \
        windows test-windows gomocup fuzz fuzz-build
all: $(addprefix $(TOP),$(PROGRAMS))

# ABOUT names the revision: session.o is rebuilt whenever it changes (a
# stamp per revision), not only when session.c does
REV_STAMP := $(BUILD)/.rev-$(GIT_REV)
$(BUILD)/protocol/session.o: $(REV_STAMP)
$(REV_STAMP):
	@mkdir -p $(BUILD) && rm -f $(BUILD)/.rev-* && touch $@

$(TOP)pbrain-quinto: $(BUILD)/protocol/main.o $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(TOP)quinto-manager: $(BUILD)/tournaments/main.o $(MGR_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

# ---- tests ----
CHECK_CFLAGS = $(shell pkg-config --cflags check 2>/dev/null)
CHECK_LIBS   = $(shell pkg-config --libs check 2>/dev/null)

$(BUILD)/tests/%.o: override CFLAGS += $(CHECK_CFLAGS)

$(BUILD)/quinto-tests: $(TEST_OBJ) $(MGR_OBJ) $(LIB_OBJ)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(CHECK_LIBS) $(LDLIBS)

# What the tests need beyond a C compiler: Check (found with pkg-config) and
# tmux (the terminal tests). Installed with apt-get when this user may (root,
# or sudo without a password); otherwise the one command to run is printed.
TEST_PKGS = check pkg-config tmux
check-deps:
	@missing=""; \
	pkg-config --exists check 2>/dev/null || missing=" check pkg-config"; \
	command -v tmux >/dev/null 2>&1 || missing="$$missing tmux"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then sudo=""; \
	  elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo="sudo -n"; \
	  else echo "make test needs:$$missing. Install them with:"; \
	       echo "    sudo apt-get install -y $(TEST_PKGS)"; exit 1; fi; \
	  command -v apt-get >/dev/null 2>&1 || { echo "make test needs:$$missing (Check, pkg-config, tmux): install them with your package manager"; exit 1; }; \
	  echo "make test: installing$$missing (apt-get install -y $(TEST_PKGS))"; \
	  $$sudo apt-get update -qq >/dev/null && \
	  DEBIAN_FRONTEND=noninteractive $$sudo apt-get install -y -qq $(TEST_PKGS) >/dev/null || \
	    { echo "make test: apt-get failed; run: sudo apt-get install -y $(TEST_PKGS)"; exit 1; }; \
	fi

$(BUILD)/fakebrain: tests/fakebrain.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $<

# check-deps first, then a fresh make that sees the installed Check
test: check-deps
	@$(MAKE) --no-print-directory run-tests CFLAGS="$(USER_CFLAGS)"

run-tests: all $(BUILD)/quinto-tests $(BUILD)/fakebrain
	$(TEST_ENV) QUINTO_TESTDATA=$(TESTDATA) QUINTO_OPENINGS=$(OPENINGS) QUINTO_BRAIN=$(abspath $(TOP)pbrain-quinto) \
	  QUINTO_FAKE=$(abspath $(BUILD)/fakebrain) \
	  QUINTO_MANAGER=$(abspath $(TOP)quinto-manager) QUINTO_TESTS=$(abspath tests) \
	  ./$(BUILD)/quinto-tests

# the sanitizers slow the brain several times: the tests' waits for a reply
# (QUINTO_TEST_SLACK) and Check's time limits stretch to match
sanitize:
	$(MAKE) test SANITIZE=1 CFLAGS="$(USER_CFLAGS)" TEST_ENV="QUINTO_TEST_SLACK=3 CK_TIMEOUT_MULTIPLIER=3"

debug:
	$(MAKE) all DEBUG=1 CFLAGS="$(USER_CFLAGS)"

bench: all
	./pbrain-quinto speed
	./pbrain-quinto bench

# A person (black) against the brain, 15x15 freestyle, in the terminal.
# make play [LEVEL=0..100] [HUMAN=black|white|both] [RULE=freestyle|standard|renju|caro]
#           [SIZE=15] [SWAP2=1]: LEVEL weakens the brain for people (< and > change it in play),
#           SWAP2=1 opens every game with swap2; r reviews the game when it is over.
LEVEL ?= 100
HUMAN ?= black
RULE ?= freestyle
SIZE ?= 15
play: all
	./quinto-manager play -rule $(RULE) -size $(SIZE) -human $(HUMAN) -level $(LEVEL) $(if $(SWAP2),-opening-rule swap2)

# Two brains playing each other, to watch.
watch: all
	./quinto-manager watch -rule freestyle -size 15 -tc 1000 -delay 300

# A short demonstration match: the brain against itself from Piskvork openings.
match: all
	./quinto-manager match -engine cmd=$(abspath pbrain-quinto) name=Quinto-A \
	  -engine cmd=$(abspath pbrain-quinto) name=Quinto-B -rule freestyle -size 15 \
	  -tc 200/10000 -openings piskvork-f15 \
	  -games 8 -concurrency 2

install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/quinto/openings
	install -m 755 pbrain-quinto quinto-manager $(DESTDIR)$(PREFIX)/bin/
	install -m 644 tournaments/openings/*.txt tournaments/openings/README.md \
	  $(DESTDIR)$(PREFIX)/share/quinto/openings/

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/pbrain-quinto $(DESTDIR)$(PREFIX)/bin/quinto-manager
	rm -rf $(DESTDIR)$(PREFIX)/share/quinto

# ---- Windows (the Gomocup entry, Piskvork): cross-compiled with mingw-w64 ----
# pbrain-quinto64.exe: x86-64, statically linked (winpthreads included), no
# DLL beyond Windows' own. Needs gcc-mingw-w64-x86-64; the tests need wine.
WIN_CC    ?= x86_64-w64-mingw32-gcc-posix
WIN_FLAGS := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE $(WARN) -O3 -DNDEBUG \
             -DQUINTO_REV=\"$(GIT_REV)\" -static -s
WIN_SRC   := $(wildcard brain/*.c eval/*.c search/*.c protocol/*.c)
WINE      ?= wine
WINESERVER ?= wineserver
VERSION   := $(shell sed -n 's/^\#define QUINTO_VERSION "\(.*\)"/\1/p' protocol/session.c)

windows: pbrain-quinto64.exe

pbrain-quinto64.exe: $(WIN_SRC) $(wildcard */*.h) $(REV_STAMP)
	@command -v $(WIN_CC) >/dev/null || { echo "make windows needs mingw-w64: apt-get install -y gcc-mingw-w64-x86-64"; exit 1; }
	$(WIN_CC) $(WIN_FLAGS) $(CFLAGS_WIN) -o $@ $(WIN_SRC) -lpthread

# The brain's end-to-end protocol suite against the .exe under wine, then a
# short match of the .exe against the Linux build (no time losses allowed).
test-windows: pbrain-quinto64.exe all $(BUILD)/quinto-tests $(BUILD)/fakebrain
	@command -v $(WINE) >/dev/null || { echo "make test-windows needs wine: apt-get install -y wine64"; exit 1; }
	@# The first wine command makes the prefix, and processes that outlive it
	@# (wineboot's update) go on with it: wait for them all to end (-w), then
	@# start one persistent wineserver (-p, refused while another runs) and
	@# keep it up for the protocol suite and the match. A brain started while
	@# a wineserver is shutting down can die before its first line: seen in CI
	@# in the match (db9fea7) and, with the suite started on the heels of the
	@# prefix's creation, in the suite (the .exe closed its output before
	@# answering its first START). The server is killed when the recipe ends,
	@# passed or not.
	WINEDEBUG=-all $(WINE) $(abspath pbrain-quinto64.exe) about
	-WINEDEBUG=-all $(WINESERVER) -w
	-WINEDEBUG=-all $(WINESERVER) -p60
	mkdir -p build/windows-stderr
	@rc=0; \
	CK_RUN_SUITE=protocol CK_EXCLUDE_TAGS=native WINEDEBUG=-all QUINTO_TEST_SLACK=3 QUINTO_TESTDATA=$(TESTDATA) QUINTO_OPENINGS=$(OPENINGS) \
	  QUINTO_BRAIN="$(WINE) $(abspath pbrain-quinto64.exe)" ./$(BUILD)/quinto-tests || rc=1; \
	if [ $$rc = 0 ]; then \
	  WINEDEBUG=-all ./quinto-manager match -engine cmd="$(WINE) $(abspath pbrain-quinto64.exe)" name=Quinto-exe \
	    -engine cmd=$(abspath pbrain-quinto) name=Quinto-linux -rule freestyle -size 15 -tc 500/30000 \
	    -openings piskvork-f15 -games 4 -concurrency 1 -quiet -results build/windows-match.tsv \
	    -stderr build/windows-stderr || { echo "test-windows: the match failed; the brains' stderr:"; \
	    tail -n 40 build/windows-stderr/*.stderr; rc=1; }; \
	fi; \
	WINEDEBUG=-all $(WINESERVER) -k 2>/dev/null; \
	[ $$rc = 0 ] || exit 1
	@if cut -f6 build/windows-match.tsv | grep -qvE '^(reason|five|board full|move cap|renju move limit)$$'; then \
	  echo "test-windows: a game ended otherwise than by play:"; cut -f1-7 build/windows-match.tsv; exit 1; fi
	@echo "test-windows: passed (protocol suite and 4 games under wine, no time losses)"

# The Gomocup submission: the executable and a short description, zipped.
gomocup: pbrain-quinto64.exe
	rm -rf build/gomocup && mkdir -p build/gomocup
	cp pbrain-quinto64.exe build/gomocup/
	printf 'Quinto %s (%s)\r\nAuthor: The Quinto developers\r\nRules: freestyle, standard (exactly five), renju, caro; any board from 5x5 to 128x128\r\nProtocol: Gomocup/Piskvork brain protocol, with Yixin extensions\r\nExecutable: pbrain-quinto64.exe (x86-64, no DLL needed, SSE2 only)\r\n' \
	  "$(VERSION)" "$(GIT_REV)" > build/gomocup/README.txt
	rm -f quinto-gomocup.zip
	cd build/gomocup && zip -q ../../quinto-gomocup.zip pbrain-quinto64.exe README.txt
	@echo "quinto-gomocup.zip: $$(unzip -l quinto-gomocup.zip | tail -1)"

# ---- fuzzing (clang's libFuzzer with ASan and UBSan) ----
# Three targets: the brain's session fed whole command streams, the protocol
# codec and line reader, the manager's parsers. Seeds in tests/fuzz/seeds;
# what a run learns goes to build/fuzz/corpus-*, a crash to build/fuzz/crash-*
# (then: build/fuzz/fuzz_session build/fuzz/crash-... reproduces it).
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_TARGETS := session codec manager
FUZZ_FLAGS   := $(CSTD) $(WARN) -O1 -g -fno-omit-frame-pointer -pthread \
                -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined \
                -DQUINTO_REV=\"$(GIT_REV)\"
FUZZ_LIB_SRC := $(LIB_SRC) $(MGR_SRC)

build/fuzz/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(USER_CFLAGS) -MMD -MP -c -o $@ $<

build/fuzz/fuzz_%: build/fuzz/tests/fuzz/fuzz_%.o $(FUZZ_LIB_SRC:%.c=build/fuzz/%.o)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $^ -lm

fuzz-build: $(FUZZ_TARGETS:%=build/fuzz/fuzz_%)

fuzz: fuzz-build
	@for t in $(FUZZ_TARGETS); do \
	  mkdir -p build/fuzz/corpus-$$t; \
	  echo "fuzz $$t: $(FUZZ_SECONDS) s"; \
	  ASAN_OPTIONS=allocator_may_return_null=1:detect_leaks=1 \
	  ./build/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -timeout=20 -rss_limit_mb=2560 \
	    -max_len=8192 -print_final_stats=1 -artifact_prefix=build/fuzz/ \
	    build/fuzz/corpus-$$t tests/fuzz/seeds/$$t 2>build/fuzz/$$t.log || \
	    { tail -40 build/fuzz/$$t.log; echo "fuzz $$t: FAILED (log: build/fuzz/$$t.log)"; exit 1; }; \
	  grep -E 'stat::number_of_executed_units|stat::peak_rss_mb' build/fuzz/$$t.log | tr '\n' ' '; echo; \
	done

clean:
	rm -rf build pbrain-quinto quinto-manager pbrain-quinto64.exe quinto-gomocup.zip

-include $(shell find build -name '*.d' 2>/dev/null)
