# SPDX-License-Identifier: Apache-2.0
## The plugin kit: the part of the shared plugin code an out-of-tree REST
## backend needs, installed as a static archive with its headers and
## sandboxio-plugin-kit.pc, so a third-party backend links the same retry,
## redaction, status map, owner labels and gc sweep as ours instead of
## writing them again. The in-tree plugins keep linking the convenience
## libraries of lib/lib.mk; this compiles the same sources once more
## for installation. SBX_KIT_SOURCE_FILES is the one list of what the kit holds.
##
## The objects are position-independent (they end up in a plugin's .so) and
## hidden (-fvisibility=hidden): nothing of the kit is exported from a
## plugin linking it, whose only export stays its entry point. No sanitizer
## flags: the archive is linked by programs built without them.

## Installed as $(includedir)/sandboxio/kit/sbxu/NAME.h: a plugin includes
## <sbxu/NAME.h> as the in-tree backends do, sandboxio-plugin-kit.pc putting
## $(includedir)/sandboxio/kit on the include path.
SBX_KIT_HEADER_FILES = \
	lib/sbxu/buf.h \
	lib/sbxu/base64.h \
	lib/sbxu/cred.h \
	lib/sbxu/opts.h \
	lib/sbxu/owner.h \
	lib/sbxu/url.h \
	lib/sbxu/create.h \
	lib/sbxu/time.h \
	lib/sbxu/clock.h \
	lib/sbxu/json.h \
	lib/sbxu/http.h \
	lib/sbxu/http_pool.h

SBX_KIT_SOURCE_FILES = \
	lib/buf.c \
	lib/base64.c \
	lib/cred.c \
	lib/opts.c \
	lib/owner.c \
	lib/gc.c \
	lib/url.c \
	lib/create.c \
	lib/rfc3339.c \
	lib/clock.c \
	lib/json.c \
	lib/http_internal.h \
	lib/http_session.c \
	lib/http_transfer.c \
	lib/http_retry.c \
	lib/http_status.c \
	lib/http_redact.c \
	lib/http_pool.c

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

sbxkitincludedir = $(includedir)/sandboxio/kit/sbxu
sbxkitinclude_HEADERS = $(SBX_KIT_HEADER_FILES)

pkgconfig_DATA += sandboxio-plugin-kit.pc
endif
endif
