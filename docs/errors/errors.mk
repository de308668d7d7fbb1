# SPDX-License-Identifier: Apache-2.0
## The error catalog pages: one per code of include/sandboxio/error-codes.def
## and src/cli/error-codes.def (SBX_ERROR_PAGES is derived from them by
## scripts/gen-error-index.sh, run by `make frozen-update`),
## distributed and installed under $(docdir)/errors/ (the pages an error
## points to when mkdocs builds no HTML site, docs/docs.mk).
## tests/test_error_catalog.c checks this list against the catalog.
errorsdir = $(docdir)/errors
dist_errors_DATA = docs/errors/README.md $(SBX_ERROR_PAGES)
SBX_ERROR_PAGES = \
	docs/errors/SBX_E1001.md \
	docs/errors/SBX_E1002.md \
	docs/errors/SBX_E1003.md \
	docs/errors/SBX_E1004.md \
	docs/errors/SBX_E1005.md \
	docs/errors/SBX_E1006.md \
	docs/errors/SBX_E1007.md \
	docs/errors/SBX_E1008.md \
	docs/errors/SBX_E1009.md \
	docs/errors/SBX_E1010.md \
	docs/errors/SBX_E1011.md \
	docs/errors/SBX_E1012.md \
	docs/errors/SBX_E1013.md \
	docs/errors/SBX_E1014.md \
	docs/errors/SBX_E1015.md \
	docs/errors/SBX_E1016.md \
	docs/errors/SBX_E1017.md \
	docs/errors/SBX_E1018.md \
	docs/errors/SBX_E1019.md \
	docs/errors/SBX_E1030.md \
	docs/errors/SBX_E1031.md \
	docs/errors/SBX_E1032.md \
	docs/errors/SBX_E1040.md \
	docs/errors/SBX_E1041.md \
	docs/errors/SBX_E1042.md \
	docs/errors/SBX_E1050.md \
	docs/errors/SBX_E1051.md \
	docs/errors/SBX_E1052.md \
	docs/errors/SBX_E1053.md \
	docs/errors/SBX_E1054.md \
	docs/errors/SBX_E1055.md \
	docs/errors/SBX_E1056.md \
	docs/errors/SBX_E1057.md \
	docs/errors/SBX_E1060.md \
	docs/errors/SBX_E2001.md \
	docs/errors/SBX_E2002.md \
	docs/errors/SBX_E2003.md \
	docs/errors/SBX_E2004.md \
	docs/errors/SBX_E2005.md \
	docs/errors/SBX_E2006.md \
	docs/errors/SBX_E2007.md \
	docs/errors/SBX_E2008.md \
	docs/errors/SBX_E2009.md \
	docs/errors/SBX_E2010.md \
	docs/errors/SBX_E2011.md \
	docs/errors/SBX_E2012.md \
	docs/errors/SBX_E2040.md \
	docs/errors/SBX_E2041.md \
	docs/errors/SBX_E3001.md \
	docs/errors/SBX_E3002.md \
	docs/errors/SBX_E3003.md \
	docs/errors/SBX_E3004.md \
	docs/errors/SBX_E3005.md \
	docs/errors/SBX_E3006.md \
	docs/errors/SBX_E3007.md \
	docs/errors/SBX_E3008.md \
	docs/errors/SBX_E3009.md \
	docs/errors/SBX_E3010.md \
	docs/errors/SBX_E3011.md \
	docs/errors/SBX_E3012.md \
	docs/errors/SBX_E3013.md \
	docs/errors/SBX_E3014.md \
	docs/errors/SBX_E3015.md \
	docs/errors/SBX_E3016.md \
	docs/errors/SBX_E3020.md \
	docs/errors/SBX_E3021.md \
	docs/errors/SBX_E3022.md \
	docs/errors/SBX_E3025.md \
	docs/errors/SBX_E3030.md \
	docs/errors/SBX_E3031.md \
	docs/errors/SBX_E3032.md \
	docs/errors/SBX_E3033.md \
	docs/errors/SBX_E3040.md \
	docs/errors/SBX_E3041.md \
	docs/errors/SBX_E4001.md \
	docs/errors/SBX_E4002.md \
	docs/errors/SBX_E4003.md \
	docs/errors/SBX_E4004.md \
	docs/errors/SBX_E4005.md \
	docs/errors/SBX_E4006.md \
	docs/errors/SBX_E4007.md \
	docs/errors/SBX_E4008.md \
	docs/errors/SBX_E4009.md \
	docs/errors/SBX_E4010.md \
	docs/errors/SBX_E4011.md \
	docs/errors/SBX_E4012.md \
	docs/errors/SBX_E4013.md \
	docs/errors/SBX_E4014.md \
	docs/errors/SBX_E4015.md \
	docs/errors/SBX_E4016.md \
	docs/errors/SBX_E4017.md \
	docs/errors/SBX_E4030.md \
	docs/errors/SBX_E4040.md \
	docs/errors/SBX_E4041.md \
	docs/errors/SBX_E4050.md \
	docs/errors/SBX_E4060.md \
	docs/errors/SBX_E4061.md \
	docs/errors/SBX_E4070.md \
	docs/errors/SBX_E5001.md \
	docs/errors/SBX_E5002.md \
	docs/errors/SBX_E5003.md \
	docs/errors/SBX_E5004.md \
	docs/errors/SBX_E5005.md \
	docs/errors/SBX_E5006.md \
	docs/errors/SBX_E5007.md \
	docs/errors/SBX_E5008.md \
	docs/errors/SBX_E5009.md \
	docs/errors/SBX_E5011.md \
	docs/errors/SBX_E5012.md \
	docs/errors/SBX_E5040.md \
	docs/errors/SBX_E9001.md \
	docs/errors/SBX_E9002.md \
	docs/errors/SBX_E9003.md

## The same pages as man pages, made at build time by docs/errors/md2man.sh
## (POSIX sh and awk: the Markdown converters Debian has mis-render these
## pages' code blocks), so that `man SBX_E1001` and `man sandboxio-errors`
## read them offline: SBX_Ennnn(7), and the index README.md as
## sandboxio-errors(7). tests/error-man-pages-render.sh checks each renders
## and every code has one.
SBX_ERROR_MANS = $(SBX_ERROR_PAGES:.md=.7) docs/errors/sandboxio-errors.7
nodist_man7_MANS = $(SBX_ERROR_MANS)
EXTRA_DIST += docs/errors/md2man.sh
CLEANFILES += $(SBX_ERROR_MANS)
SUFFIXES = .md .7
.md.7:
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(SHELL) $(srcdir)/docs/errors/md2man.sh '$(PACKAGE_VERSION)' $< >$@.tmp && mv $@.tmp $@
$(SBX_ERROR_MANS): docs/errors/md2man.sh
docs/errors/sandboxio-errors.7: docs/errors/README.md
	$(AM_V_GEN)$(MKDIR_P) $(@D) && \
	$(SHELL) $(srcdir)/docs/errors/md2man.sh '$(PACKAGE_VERSION)' $(srcdir)/docs/errors/README.md \
	  >$@.tmp && mv $@.tmp $@
