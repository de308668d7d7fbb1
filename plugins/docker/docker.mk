## The docker backend: containers of a Docker Engine through its HTTP API.
plugin_LTLIBRARIES += plugins/docker/sandboxio-docker.la
plugins_docker_sandboxio_docker_la_SOURCES = \
	plugins/docker/docker.h \
	plugins/docker/plugin.c \
	plugins/docker/endpoint.c \
	plugins/docker/buf.c \
	plugins/docker/http.c \
	plugins/docker/hijack.c \
	plugins/docker/api.c \
	plugins/docker/errmap.c \
	plugins/docker/options.c \
	plugins/docker/container.c \
	plugins/docker/demux.c \
	plugins/docker/control.c \
	plugins/docker/exec.c \
	plugins/docker/pathcheck.c \
	plugins/docker/files.c \
	plugins/docker/gc.c
plugins_docker_sandboxio_docker_la_CFLAGS = $(AM_CFLAGS) $(CURL_CFLAGS) $(JSONC_CFLAGS) \
	$(ARCHIVE_CFLAGS)
plugins_docker_sandboxio_docker_la_LIBADD = $(CURL_LIBS) $(JSONC_LIBS) $(ARCHIVE_LIBS) -lpthread
plugins_docker_sandboxio_docker_la_LDFLAGS = $(SBX_PLUGIN_LINK)

EXTRA_DIST += docs/backends/docker.md

## `sandboxio gc`: a CLI command, built into the CLI's program.
src_sandboxio_SOURCES += src/cli/cmd_gc.c
