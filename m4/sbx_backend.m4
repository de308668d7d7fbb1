# SPDX-License-Identifier: Apache-2.0
# SBX_BACKEND(NAME, WHAT)
# -----------------------
# A backend plugin that can be left out at configure time: --disable-NAME.
# Sets the shell variable enable_NAME (yes or no) and the Automake
# conditional SBX_ENABLE_<NAME>, around the include of the backend's
# fragment in Makefile.am. The caller checks the backend's dependencies
# only when enable_NAME is yes, so a backend left out needs none of them.
AC_DEFUN([SBX_BACKEND], [
  AC_ARG_ENABLE([$1],
    [AS_HELP_STRING([--disable-$1], [do not build the $2])],
    [AS_CASE([$enableval], [yes|no], [],
      [AC_MSG_ERROR([--enable-$1 takes no value other than yes or no])])],
    [enable_$1=yes])
  AM_CONDITIONAL([SBX_ENABLE_]m4_toupper([$1]), [test "x$enable_$1" = xyes])
])
