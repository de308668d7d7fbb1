#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""interactive-echo.py SANDBOXIO [RUN-ARGS...]: stdin is streamed, line by line.

Runs `SANDBOXIO run RUN-ARGS -- sh -c 'while read ...; do echo got ...; done'`
with a pipe as its stdin, writes one line at a time and requires the
command's answer to each before the next is written, stdin still open
(a CLI that reads stdin whole first, or drops it, answers nothing until
EOF, or never); then closes stdin and requires exit 0. Exits 0, or 1 with
the reason.
"""
import os
import select
import subprocess
import sys
import time

ECHO = 'while IFS= read -r l; do echo "got $l"; done; echo bye'


def main():
    sbx, args = sys.argv[1], sys.argv[2:]
    p = subprocess.Popen([sbx, 'run'] + args + ['--', 'sh', '-c', ECHO],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out = b''
    try:
        for word in ('one', 'two', 'three'):
            p.stdin.write(word.encode() + b'\n')
            p.stdin.flush()
            want = b'got ' + word.encode() + b'\n'
            deadline = time.monotonic() + 20
            while want not in out:
                left = deadline - time.monotonic()
                if left <= 0 or p.poll() is not None:
                    sys.exit('FAIL: no answer to %r while stdin is open (stdout so far %r, '
                             'exit %r, stderr %r)' % (word, out, p.poll(), p.stderr.read1(4096)
                                                      if p.poll() is not None else b''))
                ready, _, _ = select.select([p.stdout], [], [], left)
                if ready:
                    chunk = os.read(p.stdout.fileno(), 4096)
                    if not chunk:
                        sys.exit('FAIL: stdout closed before the answer to %r' % word)
                    out += chunk
        p.stdin.close()
        p.wait(timeout=20)
        rest, err = p.stdout.read(), p.stderr.read()
    except subprocess.TimeoutExpired:
        p.kill()
        sys.exit('FAIL: the run did not end 20 s after stdin closed')
    out += rest
    if p.returncode != 0 or not out.endswith(b'bye\n'):
        sys.exit('FAIL: exit %d, stdout %r, stderr %r' % (p.returncode, out, err))
    print('ok: %s run %s: three lines answered one by one, stdin open' % (sbx, ' '.join(args)))


if __name__ == '__main__':
    main()
