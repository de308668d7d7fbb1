# SPDX-License-Identifier: Apache-2.0
# SBX_BACKEND(NAME, WHAT, [NEEDS])
# --------------------------------
# One backend plugin that can be left out at configure time: --disable-NAME.
# The SBX_BACKEND lines of configure.ac are the one list of the backends
# (the fake aside: it always builds). Each sets the shell variable
# enable_NAME (yes or no) and the Automake conditional SBX_ENABLE_<NAME>,
# which the backend's fragment (plugins/NAME/NAME.mk) builds under, and
# adds NAME to the substitutions
#   SBX_BACKENDS           every backend
#   SBX_DISABLED_BACKENDS  those left out (make dist refuses to run)
#   SBX_BUILD_PLUGIN_PATH  the build tree's plugin directories, for tests
# NEEDS "http" says the backend speaks HTTP: lib/'s libsbxu-curl and
# libsbxu-json are built when such a backend is (SBX_NEED_HTTP). The caller
# checks the backend's own dependencies only when enable_NAME is yes, so a
# backend left out needs none of them. scripts/backends.sh reads these
# lines for the scripts that run before configure.
AC_DEFUN([SBX_BACKEND], [
  AC_ARG_ENABLE([$1],
    [AS_HELP_STRING([--disable-$1], [do not build the $2])],
    [AS_CASE([$enableval], [yes|no], [],
      [AC_MSG_ERROR([--enable-$1 takes no value other than yes or no])])],
    [enable_$1=yes])
  AM_CONDITIONAL([SBX_ENABLE_]m4_toupper([$1]), [test "x$enable_$1" = xyes])
  SBX_BACKENDS="${SBX_BACKENDS:+$SBX_BACKENDS }$1"
  SBX_BUILD_PLUGIN_PATH="$SBX_BUILD_PLUGIN_PATH:\$(abs_top_builddir)/plugins/$1/.libs"
  sbx_backends_summary="$sbx_backends_summary $1=$enable_$1"
  AS_IF([test "x$enable_$1" = xyes],
    [m4_if([$3], [http], [sbx_need_http=yes])],
    [SBX_DISABLED_BACKENDS="${SBX_DISABLED_BACKENDS:+$SBX_DISABLED_BACKENDS }$1"])
])
