# SPDX-License-Identifier: Apache-2.0
## The local backend: Linux namespaces + seccomp, no daemon, no root.
## Two parts: the plugin module (runs in the client) and the init that is
## pid 1 of every sandbox (a separate executable, so that the child of a
## multi-threaded client only has to execve() right after clone(); it needs
## nothing but libc). The seccomp filter is compiled with libseccomp at build
## time by filter-gen into filter-bpf.h: neither part links libseccomp.
## Built, tests included, only when the backend is (configure --disable-local).
if SBX_ENABLE_LOCAL

plugin_LTLIBRARIES += plugins/local/sandboxio-local.la
plugins_local_sandboxio_local_la_SOURCES = \
	plugins/local/local.h \
	plugins/local/plugin.c \
	plugins/local/options.c \
	plugins/local/spawn.c \
	plugins/local/exec.c \
	plugins/local/files.c \
	plugins/local/cgroup.c \
	plugins/local/filter.c \
	plugins/local/ids.c \
	plugins/local/helper.c \
	plugins/local/net-open.c \
	plugins/local/net-proxy.c \
	plugins/local/proxy/allow.c \
	plugins/local/proxy/allow.h \
	plugins/local/proxy/parse.c \
	plugins/local/proxy/parse.h \
	plugins/local/proxy/self.c \
	plugins/local/proxy/self.h \
	plugins/local/proto.c \
	plugins/local/proto.h \
	plugins/local/detach.c \
	plugins/local/pause.c \
	plugins/local/rundir.c \
	plugins/local/record.c
plugins_local_sandboxio_local_la_CPPFLAGS = $(AM_CPPFLAGS) \
	-DSBX_LOCAL_INIT='"$(pkglibexecdir)/sandboxio-local-init"' \
	-DSBX_LOCAL_PROXY='"$(pkglibexecdir)/sandboxio-local-proxy"'
nodist_plugins_local_sandboxio_local_la_SOURCES = plugins/local/filter-bpf.h
plugins_local_sandboxio_local_la_LDFLAGS = $(SBX_PLUGIN_LINK)
plugins_local_sandboxio_local_la_LIBADD = lib/libsbxu.la -ldl -lpthread

## The filter generator runs on the build machine (a cross build would need
## one built for the build machine). The explicit dependency covers builds
## of the plugin alone (bench/local/run.sh), which skip BUILT_SOURCES.
EXTRA_PROGRAMS += plugins/local/filter-gen
plugins_local_filter_gen_SOURCES = plugins/local/filter-gen.c plugins/local/socket-families.h \
	plugins/local/proxy/filter-rules.c plugins/local/proxy/filter-rules.h
plugins_local_filter_gen_CFLAGS = $(AM_CFLAGS) $(SECCOMP_CFLAGS)
plugins_local_filter_gen_LDADD = $(SECCOMP_LIBS)
plugins/local/filter-bpf.h: plugins/local/filter-gen$(EXEEXT)
	$(AM_V_GEN)plugins/local/filter-gen$(EXEEXT) > $@.tmp && mv $@.tmp $@
$(plugins_local_sandboxio_local_la_OBJECTS): plugins/local/filter-bpf.h
BUILT_SOURCES += plugins/local/filter-bpf.h
CLEANFILES += plugins/local/filter-bpf.h plugins/local/filter-bpf.h.tmp \
	plugins/local/filter-gen$(EXEEXT)

pkglibexec_PROGRAMS += plugins/local/sandboxio-local-init
plugins_local_sandboxio_local_init_SOURCES = \
	plugins/local/init/init.h \
	plugins/local/init/main.c \
	plugins/local/init/setup.c \
	plugins/local/init/rootfs.c \
	plugins/local/init/supervise.c \
	plugins/local/init/serve.c \
	plugins/local/init/keeper.c \
	plugins/local/init/net.c \
	plugins/local/proto.c \
	plugins/local/proto.h
## The clocks (sbxu/clock.h).
plugins_local_sandboxio_local_init_LDADD = lib/libsbxu.la
## Linked statically (glibc's static PIE): no dynamic loader at each sandbox's
## start and a smaller address space for init to fork per exec. The
## sanitizers need their shared runtime, so those builds stay dynamic.
if !SANITIZERS
plugins_local_sandboxio_local_init_LDFLAGS = -Xcompiler -static-pie
endif

## The allowlist's egress proxy, run on the host per sandbox (proxy/proxy.c).
pkglibexec_PROGRAMS += plugins/local/sandboxio-local-proxy
plugins_local_sandboxio_local_proxy_SOURCES = \
	plugins/local/proxy/proxy.c \
	plugins/local/proxy/allow.c \
	plugins/local/proxy/allow.h \
	plugins/local/proxy/parse.c \
	plugins/local/proxy/parse.h \
	plugins/local/proxy/relay.c \
	plugins/local/proxy/relay.h \
	plugins/local/proxy/self.c \
	plugins/local/proxy/self.h \
	plugins/local/proxy/confine.c \
	plugins/local/proxy/confine.h
nodist_plugins_local_sandboxio_local_proxy_SOURCES = plugins/local/proxy/filter-bpf.h
plugins_local_sandboxio_local_proxy_CFLAGS = $(AM_CFLAGS) $(LIBEVENT_CFLAGS)
plugins_local_sandboxio_local_proxy_LDADD = lib/libsbxu.la $(LIBEVENT_LIBS)
## Its seccomp filter, compiled as the sandbox's is (filter-gen --proxy).
plugins/local/proxy/filter-bpf.h: plugins/local/filter-gen$(EXEEXT)
	$(AM_V_GEN)$(MKDIR_P) plugins/local/proxy && \
	plugins/local/filter-gen$(EXEEXT) --proxy > $@.tmp && mv $@.tmp $@
$(plugins_local_sandboxio_local_proxy_OBJECTS) $(plugins_local_tests_test_proxy_filter_OBJECTS): \
	plugins/local/proxy/filter-bpf.h
BUILT_SOURCES += plugins/local/proxy/filter-bpf.h
CLEANFILES += plugins/local/proxy/filter-bpf.h plugins/local/proxy/filter-bpf.h.tmp

## Tests: the plugin driven directly through its descriptor (no core needed),
## the escape battery, the same as an unprivileged user, and the contract.
check_PROGRAMS += \
	plugins/local/tests/test_local_exec \
	plugins/local/tests/test_local_lifecycle \
	plugins/local/tests/test_local_detach \
	plugins/local/tests/test_local_escape \
	plugins/local/tests/test_proxy_filter \
	plugins/local/tests/test_proxy_rules \
	plugins/local/tests/escape-probe
LOCAL_TEST_HARNESS = \
	plugins/local/tests/harness.c \
	plugins/local/tests/harness.h
plugins_local_tests_test_local_exec_SOURCES = plugins/local/tests/test_local_exec.c $(LOCAL_TEST_HARNESS)
plugins_local_tests_test_local_exec_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
plugins_local_tests_test_local_exec_LDADD = lib/libsbxu.la $(CHECK_LIBS) -ldl -lpthread
plugins_local_tests_test_local_lifecycle_SOURCES = \
	plugins/local/tests/test_local_lifecycle.c $(LOCAL_TEST_HARNESS)
plugins_local_tests_test_local_lifecycle_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
plugins_local_tests_test_local_lifecycle_LDADD = lib/libsbxu.la $(CHECK_LIBS) -ldl -lpthread
plugins_local_tests_test_local_detach_SOURCES = \
	plugins/local/tests/test_local_detach.c $(LOCAL_TEST_HARNESS)
plugins_local_tests_test_local_detach_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
plugins_local_tests_test_local_detach_LDADD = lib/libsbxu.la $(CHECK_LIBS) -ldl -lpthread
plugins_local_tests_test_local_escape_SOURCES = \
	plugins/local/tests/test_local_escape.c $(LOCAL_TEST_HARNESS)
plugins_local_tests_test_local_escape_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
plugins_local_tests_test_local_escape_LDADD = lib/libsbxu.la $(CHECK_LIBS) -ldl -lpthread
plugins_local_tests_test_proxy_filter_SOURCES = plugins/local/tests/test_proxy_filter.c \
	plugins/local/proxy/confine.c plugins/local/proxy/confine.h
nodist_plugins_local_tests_test_proxy_filter_SOURCES = plugins/local/proxy/filter-bpf.h
plugins_local_tests_test_proxy_filter_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
plugins_local_tests_test_proxy_filter_LDADD = $(CHECK_LIBS)
plugins_local_tests_test_proxy_rules_SOURCES = plugins/local/tests/test_proxy_rules.c \
	plugins/local/proxy/allow.c plugins/local/proxy/parse.c
plugins_local_tests_test_proxy_rules_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
plugins_local_tests_test_proxy_rules_LDADD = $(CHECK_LIBS)
## The probe runs INSIDE sandboxes, copied in by the tests: no sanitizer
## runtime there, so it is built plainly.
plugins_local_tests_escape_probe_SOURCES = plugins/local/tests/escape-probe.c
plugins_local_tests_escape_probe_CFLAGS = -std=gnu11 $(WARN_CFLAGS)
plugins_local_tests_escape_probe_LDFLAGS =
plugins_local_tests_escape_probe_LDADD = -lpthread

TESTS += \
	plugins/local/tests/test_local_exec \
	plugins/local/tests/test_local_lifecycle \
	plugins/local/tests/test_local_detach \
	plugins/local/tests/test_local_escape \
	plugins/local/tests/test_proxy_filter \
	plugins/local/tests/test_proxy_rules \
	plugins/local/tests/local-tests-pass-unprivileged.sh \
	plugins/local/tests/local-passes-contract.sh \
	plugins/local/tests/run-interrupt-stops-silent-command.sh \
	plugins/local/tests/run-missing-program-exits-127-unexecutable-126.sh \
	plugins/local/tests/run-network-open-refused-by-policy.sh \
	plugins/local/tests/run-interactive-stdin-streams.sh \
	plugins/local/tests/run-tty-shell-in-tmux.sh \
	plugins/local/tests/shell-without-terminal-reads-stdin.sh \
	plugins/local/tests/run-sets-home-and-passes-term.sh \
	plugins/local/tests/run-cwd-absolute-made.sh \
	plugins/local/tests/exec-attached-streams-stdin.sh \
	plugins/local/tests/demo-on-local.sh \
	plugins/local/tests/cp-out-keeps-holes-and-bounds-size.sh \
	plugins/local/tests/run-network-open-reaches-netns-not-host.sh \
	plugins/local/tests/run-network-allowlist-holds.sh \
	plugins/local/tests/proxy-relays-and-keeps-bounds.sh \
	plugins/local/tests/network-helpers-get-no-client-environment.sh \
	plugins/local/tests/run-network-allowlist-refuses-host-addresses.sh \
	plugins/local/tests/proxy-holds-bounded-memory-for-stalled-tunnels.sh \
	plugins/local/tests/run-network-open-caps-connections.sh \
	plugins/local/tests/rundir-private-without-xdg-runtime-dir.sh \
	plugins/local/tests/run-takes-ready-sandbox-and-leaves-one.sh \
	plugins/local/tests/run-ready-sandbox-same-as-fresh.sh \
	plugins/local/tests/run-ready-sandbox-holds-escape-battery.sh \
	plugins/local/tests/run-ready-concurrent-runs-never-share.sh \
	plugins/local/tests/run-ready-sandbox-ends-at-ttl.sh \
	plugins/local/tests/cp-keeps-modes-mtimes-links.sh
EXTRA_DIST += \
	plugins/local/tests/lib.sh \
	plugins/local/tests/ready-lib.sh \
	plugins/local/tests/netns.sh \
	plugins/local/tests/allowlist-client.py \
	plugins/local/tests/local-tests-pass-unprivileged.sh \
	plugins/local/tests/local-passes-contract.sh \
	plugins/local/tests/run-interrupt-stops-silent-command.sh \
	plugins/local/tests/run-missing-program-exits-127-unexecutable-126.sh \
	plugins/local/tests/run-network-open-refused-by-policy.sh \
	plugins/local/tests/run-interactive-stdin-streams.sh \
	plugins/local/tests/run-tty-shell-in-tmux.sh \
	plugins/local/tests/shell-without-terminal-reads-stdin.sh \
	plugins/local/tests/run-sets-home-and-passes-term.sh \
	plugins/local/tests/run-cwd-absolute-made.sh \
	plugins/local/tests/exec-attached-streams-stdin.sh \
	plugins/local/tests/demo-on-local.sh \
	plugins/local/tests/cp-out-keeps-holes-and-bounds-size.sh \
	plugins/local/tests/run-network-open-reaches-netns-not-host.sh \
	plugins/local/tests/run-network-allowlist-holds.sh \
	plugins/local/tests/proxy-relays-and-keeps-bounds.sh \
	plugins/local/tests/network-helpers-get-no-client-environment.sh \
	plugins/local/tests/run-network-allowlist-refuses-host-addresses.sh \
	plugins/local/tests/proxy-holds-bounded-memory-for-stalled-tunnels.sh \
	plugins/local/tests/run-network-open-caps-connections.sh \
	plugins/local/tests/rundir-private-without-xdg-runtime-dir.sh \
	plugins/local/tests/run-takes-ready-sandbox-and-leaves-one.sh \
	plugins/local/tests/run-ready-sandbox-same-as-fresh.sh \
	plugins/local/tests/run-ready-sandbox-holds-escape-battery.sh \
	plugins/local/tests/run-ready-concurrent-runs-never-share.sh \
	plugins/local/tests/run-ready-sandbox-ends-at-ttl.sh \
	plugins/local/tests/cp-keeps-modes-mtimes-links.sh \
	plugins/local/tests/proxy-relay.py \
	plugins/local/tests/proxy-memory.py \
	bench/local/run.sh \
	bench/local-net/run.sh \
	bench/local-net/netbench.py \
	docs/backends/local.md \
	docs/performance.md

## The benchmark driver: built on demand by bench/local/run.sh
## (`make bench/local/bench-local`), never installed.
EXTRA_PROGRAMS += bench/local/bench-local
bench_local_bench_local_SOURCES = bench/local/bench-local.c bench/median.h
bench_local_bench_local_LDADD = src/libsandboxio.la
CLEANFILES += bench/local/bench-local
endif
