# SPDX-License-Identifier: Apache-2.0
## The plugin kit: the part of the shared plugin code an out-of-tree REST
## backend needs, installed as a static archive with its headers and
## sandboxio-plugin-kit.pc, so a third-party backend links the same retry,
## redaction, status map, owner labels and gc sweep as ours instead of
## writing them again. The in-tree plugins keep linking the convenience
## libraries of plugins/lib/lib.mk; this compiles the same sources once more
## for installation. SBX_KIT_SOURCE_FILES is the one list of what the kit holds.
##
## The objects are position-independent (they end up in a plugin's .so) and
## hidden (-fvisibility=hidden): nothing of the kit is exported from a
## plugin linking it, whose only export stays its entry point. No sanitizer
## flags: the archive is linked by programs built without them.

## Installed under $(includedir)/sandboxio/kit; sandboxio-plugin-kit.pc puts
## that directory on the include path.
SBX_KIT_HEADER_FILES = \
	plugins/lib/sbx-buf.h \
	plugins/lib/sbx-base64.h \
	plugins/lib/sbx-cred.h \
	plugins/lib/sbx-opts.h \
	plugins/lib/sbx-owner.h \
	plugins/lib/sbx-url.h \
	plugins/lib/sbx-create.h \
	plugins/lib/sbx-time.h \
	plugins/lib/sbx-json.h \
	plugins/lib/sbx-http.h \
	plugins/lib/sbx-http-pool.h

SBX_KIT_SOURCE_FILES = \
	plugins/lib/buf.c \
	plugins/lib/base64.c \
	plugins/lib/cred.c \
	plugins/lib/opts.c \
	plugins/lib/owner.c \
	plugins/lib/gc.c \
	plugins/lib/url.c \
	plugins/lib/create.c \
	plugins/lib/rfc3339.c \
	plugins/lib/json.c \
	plugins/lib/http_internal.h \
	plugins/lib/http_session.c \
	plugins/lib/http_transfer.c \
	plugins/lib/http_retry.c \
	plugins/lib/http_status.c \
	plugins/lib/http_redact.c \
	plugins/lib/http_pool.c

## cr: the "u" of automake's default cru only draws a warning from binutils ar.
ARFLAGS = cr

## The kit needs libcurl and json-c: it is built where the in-tree HTTP
## backends made configure look for them.
if SBX_NEED_HTTP
if SBX_NEED_JSON_PLUGIN
lib_LIBRARIES += libsandboxio-plugin-kit.a
libsandboxio_plugin_kit_a_SOURCES = $(SBX_KIT_HEADER_FILES) $(SBX_KIT_SOURCE_FILES)
libsandboxio_plugin_kit_a_CFLAGS = -std=gnu11 $(WARN_CFLAGS) -fvisibility=hidden -fPIC \
	$(CURL_CFLAGS) $(JSONC_CFLAGS)

sbxkitincludedir = $(includedir)/sandboxio/kit
sbxkitinclude_HEADERS = $(SBX_KIT_HEADER_FILES)

pkgconfig_DATA += sandboxio-plugin-kit.pc
endif
endif
