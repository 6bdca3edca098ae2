# iorig build. `make run` and `make test` install missing Debian build
# dependencies first when run as root (see the deps target).

PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
PKG_CONFIG ?= pkg-config

# Debian packages the build and the tests need.
# python3 reads JSON in the CLI tests and the bench.
DEB_DEPS := pkg-config libjansson-dev libcmocka-dev liburing-dev libaio-dev \
	python3

OPT ?= -O2
CFLAGS ?= $(OPT) -g
WARN := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
PKGS := jansson liburing
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
ALL_CFLAGS = -std=gnu11 $(WARN) -D_GNU_SOURCE -Iinclude $(PKG_CFLAGS) $(CFLAGS)
LIBS = $(PKG_LIBS) -laio -lpthread -lm
CMOCKA_CFLAGS = $(shell $(PKG_CONFIG) --cflags cmocka 2>/dev/null)
CMOCKA_LIBS = $(shell $(PKG_CONFIG) --libs cmocka 2>/dev/null)

VERSION := $(shell cat VERSION 2>/dev/null || echo 0.0.0)

# `make V=1` shows the full commands.
ifeq ($(V),1)
Q :=
QUIET = @:
else
Q := @
QUIET = @echo
endif

SRCS := $(wildcard src/*.c src/engines/*.c)
OBJS := $(SRCS:.c=.o)
LIBOBJS := $(filter-out src/main.o,$(OBJS))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:.c=)

.PHONY: all deps run test bench install clean

all: iorig

deps:
	@missing=""; for p in $(DEB_DEPS); do \
		dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
			grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing:$$missing" >&2; \
			apt-get update -qq && \
			DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >&2 || exit 1; \
		else \
			echo "missing build dependencies; run as root:" >&2; \
			echo "  apt-get install -y$$missing" >&2; exit 1; \
		fi; \
	fi

src/%.o: src/%.c $(wildcard include/*.h)
	$(QUIET) "  CC      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -DIORIG_VERSION='"$(VERSION)"' -c -o $@ $<

libiorig.a: $(LIBOBJS)
	$(QUIET) "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

iorig: src/main.o libiorig.a
	$(QUIET) "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)

tests/unit/test_%: tests/unit/test_%.c libiorig.a $(wildcard include/*.h)
	$(QUIET) "  CC      $@"
	$(Q)$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -o $@ $< libiorig.a $(CMOCKA_LIBS) $(LIBS)

run: deps
	@$(MAKE) --no-print-directory iorig
	./iorig jobs/quick.job

test: deps
	@$(MAKE) --no-print-directory iorig $(UNIT_BINS)
	@sh tests/run-all.sh $(UNIT_BINS)

bench: deps iorig
	@sh bench/run.sh

install: iorig
	install -D -m 755 iorig $(DESTDIR)$(PREFIX)/bin/iorig
	install -D -m 644 man/iorig.1 $(DESTDIR)$(PREFIX)/share/man/man1/iorig.1

clean:
	rm -f iorig libiorig.a $(OBJS) $(UNIT_BINS)
