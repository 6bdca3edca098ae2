# iorig build. `make run` and `make test` install missing Debian build
# dependencies first when run as root (see the deps target).

PREFIX ?= /usr/local
DESTDIR ?=
CC ?= cc
PKG_CONFIG ?= pkg-config

# Debian packages the build and the tests need.
# python3 reads JSON in the CLI tests and the bench; libblkid-dev probes
# block devices for data before a job writes to them; e2fsprogs (mkfs.ext4)
# and fdisk (sfdisk) make the file systems and partition tables that the
# guard tests expect to be refused. libxxhash-dev gives verify=xxh3 and
# xxhash, libssl-dev (libcrypto) md5 and sha*, zlib1g-dev crc32,
# liblzma-dev crc64.
# libfuse3-dev and fuse3 (fusermount3) build and mount tests/faultfs, the
# fault-injecting file system of the error tests. python3-jsonschema
# validates the JSON reports against doc/iorig-json.schema.json. fio is
# the outside truth some tests compare with (the same job on both tools).
# gnuplot-nox draws --chart's SVG (tests/cli/89-rate-curve.sh); valgrind
# counts the hot path's instructions (tests/cli/107-hot-path-cost.sh).
# chromium renders the HTML report headless (tests/cli/165-html.sh).
# openmpi-bin (mpirun) and libopenmpi-dev build and test iorig-mpi.
# strace and iproute2 (ip, ss) check the net engine's system calls and
# sockets in a namespace of their own (tests/cli/192-195).
DEB_DEPS := pkg-config libjansson-dev libcmocka-dev liburing-dev libaio-dev \
	python3 libblkid-dev e2fsprogs fdisk libxxhash-dev libfuse3-dev fuse3 \
	python3-jsonschema fio libssl-dev zlib1g-dev liblzma-dev gnuplot-nox \
	chromium valgrind openmpi-bin libopenmpi-dev
# gcc and libc6-dev build everything (a fresh Debian may have make alone);
# procps (pgrep) finds the MPI ranks left running (tests/cli/174, 176).
DEB_DEPS += gcc libc6-dev procps
# bc: Debian's fio evaluates arithmetic in option values with it (without
# it fio drops `size=4*1024*$mb_memory` of its tiobench profile, and test
# 199 compares with what fio does).
DEB_DEPS += bc
# python3-six: Debian's fio_jsonplus_clat2csv (fio's json+ reader,
# tests/cli/168) imports it.
DEB_DEPS += python3-six
# strace counts system calls in the CLI tests (196: EXT4_IOC_MOVE_EXT;
# 193-194: send/recv, setsockopt); iproute2's ip and ss set up and
# watch the net engine's namespaces and sockets (192-195).
DEB_DEPS += strace iproute2
# The consumers of the CI and metrics formats (tests/cli/250-251):
# python3-junitparser reads --output-format=junit; prometheus gives
# promtool (check metrics), python3-prometheus-client the strict
# OpenMetrics and text parsers, prometheus-node-exporter the textfile
# collector that serves --output-format=prometheus.
DEB_DEPS += python3-junitparser prometheus python3-prometheus-client \
	prometheus-node-exporter
# --history=FILE.db keeps runs in SQLite (libsqlite3); the tests read the
# database back with Debian's sqlite3 CLI (PRAGMA integrity_check) and
# python3's sqlite3 module (tests/cli/252-255).
DEB_DEPS += libsqlite3-dev sqlite3
# The test guest (tests/guest/run.sh: one QEMU boot runs the device cases
# of tests/guest/cases/): qemu-system-x86 emulates the machine and its
# NVMe controller (TCG: KVM is not needed); busybox-static and cpio make
# its initramfs; kmod's modprobe and depmod pick and index the modules of
# Debian's kernel, which tests/guest/kernel.sh fetches with apt-get
# download into build/guest/ (never installed as this machine's kernel);
# inside, nvme-cli reads the controller's identify data and SMART
# counters, sg3-utils talks SCSI to scsi_debug's /dev/sgN, dmsetup makes
# the dm-flakey and dm-error devices (util-linux, always there, gives
# blkzone).
DEB_DEPS += qemu-system-x86 busybox-static cpio kmod nvme-cli sg3-utils \
	dmsetup
# libnvme-dev: the NVMe admin commands (Identify Controller and Namespace,
# the SMART / Health log) of io_uring_cmd and of the report's device
# health, with the specification's structures (src/target/nvmedev.c);
# nvme-cli reads the same through the same library.
DEB_DEPS += libnvme-dev
# `make fuzz` and `make test SAN=...` also need clang and its runtime
# (libFuzzer, the sanitizers); llvm gives llvm-symbolizer for stack traces.
FUZZ_DEPS := clang libclang-rt-dev llvm

OPT ?= -O2
CFLAGS ?= $(OPT) -g
WARN := -Wall -Wextra -Werror -Wshadow -Wno-unused-parameter
PKGS := jansson liburing blkid libxxhash libcrypto zlib liblzma sqlite3
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
ALL_CFLAGS = -std=gnu11 $(WARN) -D_GNU_SOURCE -Iinclude $(PKG_CFLAGS) $(CFLAGS) \
	$(SAN_CFLAGS)
# libnvme by name: Debian's libnvme.pc requires json-c's .pc for static
# links only (Requires.private), which libnvme-dev does not install, and
# pkg-config then fails for every package it is asked about with it.
LIBS = $(PKG_LIBS) -lnvme -laio -lpthread -lm
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

# Sanitizer builds: `make test SAN=1` (AddressSanitizer + UBSan) or
# `make test SAN=thread` build everything under build/san-$(SAN)/ (B, the
# output prefix; empty for the plain build), so a plain `make` never links
# a sanitizer object. SAN=fuzz is the libFuzzer build of `make fuzz`.
ifeq ($(SAN),)
B :=
else ifeq ($(SAN),thread)
B := build/san-thread/
SAN_CFLAGS := -fsanitize=thread -fno-omit-frame-pointer
else ifeq ($(SAN),fuzz)
B := build/fuzz/
SAN_CFLAGS := -fsanitize=fuzzer-no-link,address,undefined \
	-fno-sanitize-recover=all -fno-omit-frame-pointer
else ifeq ($(SAN),1)
B := build/san-1/
SAN_CFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer
else
$(error SAN=$(SAN): expected SAN=1 (ASan + UBSan) or SAN=thread)
endif
# Sanitizer builds use clang (SAN_CC): GCC 12's UBSan ignores log_path
# next to ASan. The suite runs under tests/sanitize.sh, which makes every
# report fatal and fails the run if any process wrote one. IORIG_SAN tells
# the CLI tests (one that cannot run under a sanitizer skips, saying why).
SAN_CC ?= clang
ifneq ($(SAN),)
CC = $(SAN_CC)
DEB_DEPS += $(FUZZ_DEPS)
SAN_RUN = IORIG=$(CURDIR)/$(B)iorig IORIG_SAN=$(SAN) \
	sh tests/sanitize.sh $(B)san-reports
endif

# Every file's base name is unique across the folders: libiorig.a keys its
# members by it (src/verify/rules.c, not a second plan.o).
# Each folder of src/ is a stage (doc/design.md, "Stages: who may call
# whom"); src/mpi/ is iorig-mpi's alone.
SRCS := $(filter-out src/mpi/%,$(wildcard src/*/*.c))
OBJS := $(addprefix $(B),$(SRCS:.c=.o))
LIBOBJS := $(filter-out $(B)src/face/main.o,$(OBJS))
UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(addprefix $(B),$(UNIT_SRCS:.c=))
# Small programs the CLI tests run (tests/helpers/NAME.c): never sanitized.
HELPERS := $(patsubst %.c,%,$(wildcard tests/helpers/*.c))
# Fuzz targets: tests/fuzz/fuzz_NAME.c. make test replays each seed corpus
# tests/fuzz/corpus/NAME/ through replay_NAME (no libFuzzer needed).
FUZZ_TARGETS := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
REPLAY_BINS := $(addprefix $(B)tests/fuzz/replay_,$(FUZZ_TARGETS))
FUZZ_SECONDS ?= 60
# The fault-injecting FUSE file system of the CLI tests: a test helper, so
# never built with a sanitizer; left out (its tests skip) without libfuse3.
# Expanded when the test recipe runs, after `deps` has installed libfuse3,
# so the first `make test` on a fresh machine does not skip the fault tests.
FAULTFS = $(if $(shell $(PKG_CONFIG) --exists fuse3 && echo y),tests/faultfs/faultfs)
FUZZ_RUNS ?=

.PHONY: all deps print-deps run test bench fio-suite install \
	install-fio-link clean fuzz fuzz-run

# iorig-mpi too where MPI's development files are. MPI_PKG: pkg-config's
# name of the MPI C library (Debian: mpi-c, the default MPI, Open MPI or
# MPICH; ompi-c; mpich).
MPI_PKG ?= mpi-c
all: $(B)iorig $(if $(shell $(PKG_CONFIG) --exists $(MPI_PKG) && echo y),$(B)iorig-mpi)

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

# The Debian packages of the build, the tests and the sanitizer suite, one
# line: what .ci/run builds its clean Debian root from.
print-deps:
	@echo $(DEB_DEPS) $(FUZZ_DEPS)

$(B)src/%.o: src/%.c $(wildcard include/*.h src/*.h src/*/*.h)
	$(QUIET) "  CC      $@"
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -DIORIG_VERSION='"$(VERSION)"' -c -o $@ $<

$(B)libiorig.a: $(LIBOBJS)
	$(QUIET) "  AR      $@"
	$(Q)rm -f $@ && ar rcs $@ $^

$(B)iorig: $(B)src/face/main.o $(B)libiorig.a
	$(QUIET) "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(LDFLAGS)

$(B)tests/unit/test_%: tests/unit/test_%.c $(B)libiorig.a $(wildcard include/*.h)
	$(QUIET) "  CC      $@"
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) $(CMOCKA_CFLAGS) -o $@ $< $(B)libiorig.a $(CMOCKA_LIBS) $(LIBS)

FUZZ_HDRS := $(wildcard tests/fuzz/*.h include/*.h)

$(B)tests/fuzz/replay_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c $(B)libiorig.a $(FUZZ_HDRS)
	$(QUIET) "  CC      $@"
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -DFUZZ_CORPUS='"$(CURDIR)/tests/fuzz/corpus/$*"' \
		-o $@ $< tests/fuzz/replay.c $(B)libiorig.a $(LIBS)

# libFuzzer binaries: only in the SAN=fuzz build (clang).
$(B)tests/fuzz/fuzz_%: tests/fuzz/fuzz_%.c $(B)libiorig.a $(FUZZ_HDRS)
	$(QUIET) "  CC      $@"
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer -o $@ $< $(B)libiorig.a $(LIBS)

# The builds behind `make run` and `make test` use every CPU (half the
# build time on two) unless the caller chose a -j of their own.
NPROC := $(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
PAR := $(if $(filter -j%,$(MAKEFLAGS)),,-j$(NPROC))

run: deps
	@$(MAKE) --no-print-directory $(PAR) iorig
	./iorig jobs/quick.job

tests/helpers/%: tests/helpers/%.c
	$(QUIET) "  CC      $@"
	$(Q)$(CC) -std=gnu11 $(WARN) -D_GNU_SOURCE $(OPT) -g -o $@ $<

tests/faultfs/faultfs: tests/faultfs/faultfs.c
	$(QUIET) "  CC      $@"
	$(Q)$(CC) -std=gnu11 $(WARN) -D_GNU_SOURCE $(OPT) -g \
		$(shell $(PKG_CONFIG) --cflags fuse3) -o $@ $< \
		$(shell $(PKG_CONFIG) --libs fuse3)

# `make test`: the unit tests, the CLI tests and, in boots of the test
# guest (tests/guest/run.sh; tests/run-all.sh shares the cases between
# IORIG_GUEST_BOOTS of them, each claiming the next as it ends one), its
# device cases.
test: deps
	@$(MAKE) --no-print-directory $(PAR) $(B)iorig $(B)iorig-mpi $(UNIT_BINS) $(REPLAY_BINS) \
		$(FAULTFS) $(HELPERS)
	@$(SAN_RUN) sh tests/run-all.sh $(UNIT_BINS) $(REPLAY_BINS)

# `make fuzz`: each target under libFuzzer + ASan + UBSan for FUZZ_SECONDS
# (or FUZZ_RUNS inputs), from its seed corpus; new inputs are kept in
# build/fuzz/corpus/NAME/, a crash in build/fuzz/crash-NAME-*. Then the
# executions of each. FUZZ_FLAGS passes more libFuzzer flags. Then the
# region property test (tests/cli/44) with PROP_CASES random jobs, from
# PROP_SEED (a new seed each time unless given).
PROP_CASES ?= 2000
fuzz:
	@$(MAKE) --no-print-directory SAN=fuzz deps
	@$(MAKE) --no-print-directory SAN=fuzz fuzz-run
	@$(MAKE) --no-print-directory iorig
	IORIG=$(CURDIR)/iorig IORIG_PROP_CASES=$(PROP_CASES) \
		IORIG_PROP_SEED=$${PROP_SEED:-$$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')} \
		sh tests/cli/44-region-property.sh

fuzz-run: $(addprefix $(B)tests/fuzz/fuzz_,$(FUZZ_TARGETS))
	@fail=0; for t in $(FUZZ_TARGETS); do \
		mkdir -p $(B)corpus/$$t; log=$(B)fuzz-$$t.log; \
		echo "fuzz_$$t: $(if $(FUZZ_RUNS),$(FUZZ_RUNS) runs,$(FUZZ_SECONDS) s)..."; \
		$(B)tests/fuzz/fuzz_$$t $(B)corpus/$$t tests/fuzz/corpus/$$t \
			$(if $(FUZZ_RUNS),-runs=$(FUZZ_RUNS),-max_total_time=$(FUZZ_SECONDS)) \
			-timeout=10 -print_final_stats=1 \
			-artifact_prefix=$(B)crash-$$t- $(FUZZ_FLAGS) >$$log 2>&1 || \
			{ fail=1; tail -n 60 $$log; }; \
		echo "fuzz_$$t: $$(sed -n 's/^stat::number_of_executed_units: *//p' $$log) executions, $$(sed -n 's/^stat::peak_rss_mb: *//p' $$log) MB peak RSS (log: $$log)"; \
	done; exit $$fail

bench: deps iorig
	@sh bench/run.sh

# `make fio-suite FIO_ROOT=DIR`: fio's own test suite (t/run-fio-tests.py
# of the fio source tree DIR, configured) with Debian's fio and with iorig
# as fio; fails when a test fio passes does not pass with iorig.
fio-suite: deps iorig
	@FIO_ROOT='$(FIO_ROOT)' sh tests/fio-suite.sh

# `make install FIO_LINK=1` (or `make install-fio-link`) also makes
# bin/fio a symlink to iorig: invoked as fio it takes fio's command line
# and writes fio's layouts (man iorig, INVOKED AS FIO). A fio there that
# is not already that symlink (a real fio) is left alone: refused.
install: iorig
	install -D -m 755 iorig $(DESTDIR)$(PREFIX)/bin/iorig
	if [ -x iorig-mpi ]; then \
		install -D -m 755 iorig-mpi $(DESTDIR)$(PREFIX)/bin/iorig-mpi; fi
	install -D -m 644 man/iorig.1 $(DESTDIR)$(PREFIX)/share/man/man1/iorig.1
	install -D -m 644 -t $(DESTDIR)$(PREFIX)/share/doc/iorig \
		doc/iorig-json.md doc/iorig-json.schema.json
	$(if $(filter-out 0,$(FIO_LINK)),@$(MAKE) --no-print-directory install-fio-link)

install-fio-link:
	@f='$(DESTDIR)$(PREFIX)/bin/fio'; \
	[ -e '$(DESTDIR)$(PREFIX)/bin/iorig' ] || \
		{ echo "install-fio-link: no $(DESTDIR)$(PREFIX)/bin/iorig; run make install first" >&2; exit 1; }; \
	if [ -L "$$f" ] && [ "$$(readlink "$$f")" = iorig ]; then \
		echo "$$f: already the link to iorig"; \
	elif [ -e "$$f" ] || [ -L "$$f" ]; then \
		echo "install-fio-link: $$f exists and is not the link to iorig (a real fio?); left alone, no link made" >&2; exit 1; \
	else \
		ln -s iorig "$$f" && echo "$$f -> iorig"; \
	fi

clean:
	rm -f iorig iorig-mpi libiorig.a $(OBJS) $(UNIT_BINS) $(REPLAY_BINS)
	rm -f src/mpi/*.o
	rm -f tests/faultfs/faultfs $(HELPERS)
	rm -rf build

# iorig-mpi: iorig with MPI ranks (src/mpi/, peers.h), a separate binary so
# that the plain iorig neither links libmpi nor pays its start-up
# (MPI RUNS in man/iorig.1). MPI_PKG (above).
MPI_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(MPI_PKG) 2>/dev/null)
MPI_LIBS = $(shell $(PKG_CONFIG) --libs $(MPI_PKG) 2>/dev/null)

$(B)src/mpi/%.o: src/mpi/%.c $(wildcard include/*.h)
	$(QUIET) "  CC      $@"
	@mkdir -p $(@D)
	$(Q)$(CC) $(ALL_CFLAGS) $(MPI_CFLAGS) -c -o $@ $<

$(B)iorig-mpi: $(B)src/face/main.o $(B)src/mpi/mpi.o $(B)libiorig.a
	$(QUIET) "  LD      $@"
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(LIBS) $(MPI_LIBS) $(LDFLAGS)
