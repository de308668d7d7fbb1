# SPDX-License-Identifier: Apache-2.0
## The docker backend: containers of a Docker Engine through its HTTP API.
## Built, tests included, only when the backend is (configure --disable-docker).
if SBX_ENABLE_DOCKER

plugin_LTLIBRARIES += plugins/docker/sandboxio-docker.la
plugins_docker_sandboxio_docker_la_SOURCES = \
	plugins/docker/docker.h \
	plugins/docker/plugin.c \
	plugins/docker/endpoint.c \
	plugins/docker/conn.c \
	plugins/docker/hijack.c \
	plugins/docker/api.c \
	plugins/docker/errmap.c \
	plugins/docker/options.c \
	plugins/docker/container.c \
	plugins/docker/demux.c \
	plugins/docker/control.c \
	plugins/docker/exec.c \
	plugins/docker/exec_end.c \
	plugins/docker/oneshot.c \
	plugins/docker/pathcheck.c \
	plugins/docker/files.c \
	plugins/docker/files_exec.c \
	plugins/docker/listing.c \
	plugins/docker/files_meta.c \
	plugins/docker/gc.c \
	plugins/docker/ping.c \
	plugins/docker/named.c \
	plugins/docker/list.c
nodist_plugins_docker_sandboxio_docker_la_SOURCES = plugins/docker/seccomp-profile.h
plugins_docker_sandboxio_docker_la_CFLAGS = $(AM_CFLAGS) $(CURL_CFLAGS) $(JSONC_CFLAGS) \
	$(ARCHIVE_CFLAGS)
plugins_docker_sandboxio_docker_la_LIBADD = lib/libsbxu-curl.la lib/libsbxu-json.la \
	lib/libsbxu.la $(CURL_LIBS) $(JSONC_LIBS) $(ARCHIVE_LIBS) -lpthread
plugins_docker_sandboxio_docker_la_LDFLAGS = $(SBX_PLUGIN_LINK)

EXTRA_DIST += docs/backends/docker.md

## The seccomp profile every container gets: the engine's default profile
## (configure's --with-docker-seccomp-base) with the socket families "no
## network" does not cover refused, made at build time by seccomp-gen.
EXTRA_PROGRAMS += plugins/docker/seccomp-gen
plugins_docker_seccomp_gen_SOURCES = plugins/docker/seccomp-gen.c
plugins_docker_seccomp_gen_CFLAGS = $(AM_CFLAGS) $(JSONC_CFLAGS)
plugins_docker_seccomp_gen_LDADD = $(JSONC_LIBS)
plugins/docker/seccomp-profile.h: plugins/docker/seccomp-gen$(EXEEXT) $(DOCKER_SECCOMP_BASE)
	$(AM_V_GEN)plugins/docker/seccomp-gen$(EXEEXT) '$(DOCKER_SECCOMP_BASE)' > $@.tmp && mv $@.tmp $@
$(plugins_docker_sandboxio_docker_la_OBJECTS): plugins/docker/seccomp-profile.h
BUILT_SOURCES += plugins/docker/seccomp-profile.h

## The profile is the engine's default with only the socket rules changed.
check_PROGRAMS += plugins/docker/tests/test_docker_seccomp
TESTS += plugins/docker/tests/test_docker_seccomp
plugins_docker_tests_test_docker_seccomp_SOURCES = plugins/docker/tests/test_docker_seccomp.c
nodist_plugins_docker_tests_test_docker_seccomp_SOURCES = plugins/docker/seccomp-profile.h
plugins_docker_tests_test_docker_seccomp_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(JSONC_CFLAGS)
plugins_docker_tests_test_docker_seccomp_LDADD = $(CHECK_LIBS) $(JSONC_LIBS)
$(plugins_docker_tests_test_docker_seccomp_OBJECTS): plugins/docker/seccomp-profile.h
CLEANFILES += plugins/docker/seccomp-profile.h plugins/docker/seccomp-profile.h.tmp \
	plugins/docker/seccomp-gen$(EXEEXT)

## Unit tests of the pure parts (no daemon needed).
check_PROGRAMS += plugins/docker/tests/test_docker_units
TESTS += plugins/docker/tests/test_docker_units
plugins_docker_tests_test_docker_units_SOURCES = \
	plugins/docker/tests/test_docker_units.c \
	plugins/docker/docker.h \
	plugins/docker/demux.c \
	plugins/docker/control.c \
	plugins/docker/errmap.c \
	plugins/docker/endpoint.c \
	plugins/docker/options.c
plugins_docker_tests_test_docker_units_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS) $(CURL_CFLAGS) \
	$(JSONC_CFLAGS)
plugins_docker_tests_test_docker_units_LDADD = lib/libsbxu-json.la \
	lib/libsbxu.la \
	$(CHECK_LIBS) $(CURL_LIBS) $(JSONC_LIBS)

## Against a real engine: each test starts a private dockerd (root only;
## SKIP where it cannot start, FAIL instead when CI=true).
check_PROGRAMS += plugins/docker/tests/large-file plugins/docker/tests/exec-storm-timeout \
	plugins/docker/tests/socket-probe plugins/docker/tests/put-and-run \
	plugins/docker/tests/fifo-refused
plugins_docker_tests_fifo_refused_SOURCES = plugins/docker/tests/fifo-refused.c
plugins_docker_tests_fifo_refused_LDADD = src/libsandboxio.la lib/libsbxu.la
plugins_docker_tests_put_and_run_SOURCES = plugins/docker/tests/put-and-run.c
plugins_docker_tests_put_and_run_LDADD = src/libsandboxio.la
plugins_docker_tests_socket_probe_SOURCES = plugins/docker/tests/socket-probe.c
plugins_docker_tests_socket_probe_CFLAGS = -std=gnu11 $(WARN_CFLAGS)
plugins_docker_tests_socket_probe_LDFLAGS = -all-static
plugins_docker_tests_large_file_SOURCES = plugins/docker/tests/large-file.c
plugins_docker_tests_large_file_LDADD = src/libsandboxio.la
plugins_docker_tests_exec_storm_timeout_SOURCES = plugins/docker/tests/exec-storm-timeout.c
plugins_docker_tests_exec_storm_timeout_LDADD = src/libsandboxio.la
SBX_DOCKER_TESTS = \
	plugins/docker/tests/docker-passes-contract.sh \
	plugins/docker/tests/docker-gc-removes-leaked.sh \
	plugins/docker/tests/docker-named-ttl-pause-gc.sh \
	plugins/docker/tests/docker-errors-mapped.sh \
	plugins/docker/tests/docker-files-stream-large.sh \
	plugins/docker/tests/docker-timeout-kills-fork-storm.sh \
	plugins/docker/tests/docker-run-interrupt-stops-silent-command.sh \
	plugins/docker/tests/docker-tls-verified.sh \
	plugins/docker/tests/docker-network-none-loopback-only.sh \
	plugins/docker/tests/docker-socket-families-refused.sh \
	plugins/docker/tests/docker-default-limits-applied.sh \
	plugins/docker/tests/docker-stopped-init-run-returns.sh \
	plugins/docker/tests/docker-fifo-refused.sh \
	plugins/docker/tests/docker-stdin-large.sh \
	plugins/docker/tests/docker-interactive-stdin-streams.sh \
	plugins/docker/tests/docker-doctor-online-pings-daemon.sh \
	plugins/docker/tests/docker-run-tty-shell-in-tmux.sh \
	plugins/docker/tests/docker-shell-without-terminal-reads-stdin.sh
TESTS += $(SBX_DOCKER_TESTS)
EXTRA_DIST += $(SBX_DOCKER_TESTS) plugins/docker/tests/dockerd-start.sh

## The benchmark: bench/docker/run.sh builds its driver on demand
## (`make bench/docker/bench-docker`); never installed.
EXTRA_PROGRAMS += bench/docker/bench-docker
bench_docker_bench_docker_SOURCES = bench/docker/bench-docker.c bench/median.h
bench_docker_bench_docker_LDADD = src/libsandboxio.la
CLEANFILES += bench/docker/bench-docker
EXTRA_DIST += bench/docker/run.sh
endif
