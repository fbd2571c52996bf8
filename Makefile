# Quinto — build, test and benchmark.
#   make               pbrain-quinto (and quinto-manager) at the top, optimised
#   make test          build and run every test (unit, rules on tests/data, end-to-end);
#                      installs Check, pkg-config and tmux with apt-get when it may
#   make install       pbrain-quinto and quinto-manager in PREFIX/bin, the openings
#                      in PREFIX/share/quinto/openings (PREFIX=/usr/local)
#   make sanitize      the same tests built with -fsanitize=address,undefined
#   make debug         an -O0 -g3 build with assertions (consistency checks after every move)
#   make bench         play/undo micro-benchmark and the search bench
#   make clean
# CC=clang make works the same; CFLAGS=... adds flags (make CFLAGS=-Werror).
# Check (libcheck) is needed for the tests only.

CC       ?= cc
CSTD     := -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN     := -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes
OPT      ?= -O3 -DNDEBUG
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

GIT_REV  := $(shell git rev-parse --short HEAD 2>/dev/null || echo unknown)
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

.PHONY: all test run-tests sanitize debug bench clean check-deps play watch match install uninstall
all: $(addprefix $(TOP),$(PROGRAMS))

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
	pkg-config --exists check 2>/dev/null || missing="check pkg-config"; \
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
	@$(MAKE) --no-print-directory run-tests

run-tests: all $(BUILD)/quinto-tests $(BUILD)/fakebrain
	QUINTO_TESTDATA=$(TESTDATA) QUINTO_OPENINGS=$(OPENINGS) QUINTO_BRAIN=$(abspath $(TOP)pbrain-quinto) \
	  QUINTO_FAKE=$(abspath $(BUILD)/fakebrain) \
	  QUINTO_MANAGER=$(abspath $(TOP)quinto-manager) QUINTO_TESTS=$(abspath tests) \
	  ./$(BUILD)/quinto-tests

sanitize:
	$(MAKE) test SANITIZE=1

debug:
	$(MAKE) all DEBUG=1

bench: all
	./pbrain-quinto speed
	./pbrain-quinto bench

# A person (black) against the brain, 15x15 freestyle, in the terminal.
play: all
	./quinto-manager play -rule freestyle -size 15 -human black

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

clean:
	rm -rf build pbrain-quinto quinto-manager

-include $(shell find build -name '*.d' 2>/dev/null)
