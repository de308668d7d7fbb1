/* SPDX-License-Identifier: Apache-2.0 */
/*
 * The shell wrapper every E2B command runs in: process.Process/Start gets
 * `/bin/sh -c e2b_exec_wrapper sh N CWD PATH K=V... PROGRAM ARGS...` (envd
 * runs argv as given, no shell of ours between but this one):
 *   - it enters the working directory and looks the program up in the
 *     command's own PATH, and says on stderr, before anything else, why
 *     it gave up ("\001sbx-nocwd", "\001sbx-noexec", "\001sbx-noperm"),
 *     so a missing program is told from a program that exits 127;
 *   - it makes the command a session leader (setsid, which execs in place
 *     when the shell leads no process group, as envd's child does not: the
 *     shell's own pid is then the session's, said before setsid runs, one
 *     exec fewer; a group leader's setsid forks, and the shell it runs
 *     says the pid) and says its pid
 *     ("\001sbx-pid N"): envd's timeout and SendSignal reach the command's
 *     pid only (infra packages/envd/internal/services/process/handler/
 *     handler.go), so at the deadline this backend kills the session with
 *     a second command, `kill -KILL -- -N`, and its children go with it (a
 *     process that called setsid() itself has left, as with any kill by
 *     session or group);
 *   - it runs the program under `env -i` with exactly the command's
 *     environment (envd would add PATH, HOME, USER and LOGNAME).
 * The first line of stderr is always the wrapper's and never reaches the
 * caller (exec.c reads it).
 */
#include "e2b.h"

/*
 * $1 = number of K=V words, $2 = cwd ("" = the home), $3 = PATH to look the
 * program up in. A missing cwd is made with its parents first, as `docker
 * run -w` does; HOME is the home (the work dir) unless a K=V word sets it
 * (env takes the last).
 */
const char e2b_exec_wrapper[] =
    "n=$1 c=$2 P=$3; shift 3; eval \"x=\\${$((n + 1))}\"\n"
    "[ -z \"$c\" ] || { mkdir -p -- \"$c\" 2>/dev/null; cd -- \"$c\" 2>/dev/null; } || { printf '\\001sbx-nocwd\\n' >&2; exit 126; }\n"
    "f=\n"
    "if [ \"${x#*/}\" != \"$x\" ]; then f=$x\n"
    "else\n"
    "  set -f; IFS=:\n"
    "  for d in $P; do [ -n \"$d\" ] || d=.\n"
    "    [ -f \"$d/$x\" ] && [ -x \"$d/$x\" ] && { f=$d/$x; break; }\n"
    "  done\n"
    "  unset IFS; set +f\n"
    "fi\n"
    "[ -n \"$f\" ] && [ -f \"$f\" ] || { printf '\\001sbx-noexec\\n' >&2; exit 127; }\n"
    "[ -x \"$f\" ] || { printf '\\001sbx-noperm\\n' >&2; exit 126; }\n"
    "g() { g=$3; }; s=; read -r s </proc/$$/stat 2>/dev/null; g ${s##*) }\n"
    "if [ -n \"$s\" ] && [ \"$g\" != \"$$\" ]; then\n"
    "  printf '\\001sbx-pid %s\\n' \"$$\" >&2; exec setsid env -i -- HOME=" E2B_HOME " \"$@\"\n"
    "fi\n"
    "exec setsid -w /bin/sh -c 'printf \"\\001sbx-pid %s\\n\" \"$$\" >&2; exec env -i -- HOME=" E2B_HOME " \"$@\"' sh \"$@\"\n";
