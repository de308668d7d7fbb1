#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check-doc-examples.py SRCDIR BUILDDIR [FILE...]: the docs' code runs.

Every C code block of README.md and docs/ (```c fences in Markdown, .EX/.EE
blocks with an #include in the man pages) and every examples/**/*.c is
compiled with -Wall -Wextra -Werror against BUILDDIR's libsandboxio and
run; it must exit 0. Before running, a DSN string literal of any backend
other than local:// and fake:// is resolved to "fake://" (its path and
options are the other backend's, so they go too). In a build without the
local backend (configure --disable-local) a block that names local:// is
compiled only. Shell
blocks (```sh) run only when marked runnable; they run with `sh -eu` in a
scratch directory, BUILDDIR/src (the CLI) first on PATH, and must exit 0.
Every YAML block (```yaml) is a profiles file: `sandboxio profiles check`
must accept it (exit 0), or exit N where it is marked `run exit=N`; a YAML
block that is not a profiles file needs a skip marker with its reason.

A block is marked by the line just before it:
  Markdown:  <!-- example: run -->                  (a shell block: run it)
             <!-- example: run exit=N -->           (run; it must exit N)
             <!-- example: run args=A B -->         (run a C block with arguments)
             <!-- example: compile-only: REASON --> (compiled, not run)
             <!-- example: skip: REASON -->         (a fragment: not compiled)
  man page:  the same words in a comment line just before .EX:
             .\\" example: compile-only: REASON
  examples/: a comment "example: compile-only: REASON" in the file's first
             five lines after its SPDX licence line.
A compile-only or skip marker without a reason is an error.
CC, CFLAGS (e.g. the sanitizer flags) and LDFLAGS come from the environment.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile

MARK = re.compile(r'example:\s*(run|compile-only|skip)\b(?:\s*:\s*(.*?)|\s+([^:].*?))?\s*(?:-->)?\s*$')
FOREIGN_DSN = re.compile(r'"(?!(?:local|fake)://)[a-z][a-z0-9+.-]*://(?:[^"\\]|\\.)*"')


class Block:
    def __init__(self, where, lang, text, mark):
        self.where, self.lang, self.text = where, lang, text
        self.kind, self.exit, self.args, self.reason = 'default', 0, [], ''
        if mark:
            m = MARK.search(mark)
            if m:
                self.kind, self.reason = m.group(1), m.group(2) or ''
                opts = shlex.split(m.group(3) or '')
                for i, opt in enumerate(opts):  # exit=N, then args=FIRST REST...
                    if opt.startswith('exit='):
                        self.exit = int(opt[5:])
                    elif opt.startswith('args='):
                        self.args = [opt[5:]] + opts[i + 1:]
                        break


def markdown_blocks(path, rel):
    lines = open(path, encoding='utf-8').read().split('\n')
    i, prev = 0, ''
    while i < len(lines):
        m = re.match(r'^\s*```\s*([A-Za-z]*)', lines[i])
        if not m:
            if lines[i].strip():
                prev = lines[i]
            i += 1
            continue
        start, lang, body = i + 1, m.group(1).lower(), []
        i += 1
        while i < len(lines) and not re.match(r'^\s*```', lines[i]):
            body.append(lines[i])
            i += 1
        i += 1
        mark = prev if 'example:' in prev else ''
        prev = ''
        if lang in ('c', 'sh', 'shell', 'bash', 'yaml', 'yml'):
            kind = {'c': 'c', 'yaml': 'yaml', 'yml': 'yaml'}.get(lang, 'sh')
            yield Block('%s:%d' % (rel, start), kind, '\n'.join(body) + '\n', mark)


def unroff(line):
    for a, b in (('\\-', '-'), ('\\(aq', "'"), ('\\(dq', '"'), ('\\&', ''), ('\\e', '\\')):
        line = line.replace(a, b)
    return line


def man_blocks(path, rel):
    lines = open(path, encoding='utf-8').read().split('\n')
    prev = ''
    for n, line in enumerate(lines):
        if line.startswith('.EX'):
            body = []
            for j in range(n + 1, len(lines)):
                if lines[j].startswith('.EE'):
                    break
                body.append(unroff(lines[j]))
            text = '\n'.join(body) + '\n'
            if '#include' in text:
                yield Block('%s:%d' % (rel, n + 2), 'c', text, prev if 'example:' in prev else '')
        if line.strip():
            prev = line


def example_files(srcdir):
    for root, _, files in os.walk(os.path.join(srcdir, 'examples')):
        for name in sorted(files):
            if name.endswith('.c'):
                path = os.path.join(root, name)
                text = open(path, encoding='utf-8').read()
                lines = text.split('\n')
                # The licence line every source opens with does not count.
                if lines and 'SPDX-License-Identifier' in lines[0]:
                    lines = lines[1:]
                head = '\n'.join(lines[:5])
                yield Block(os.path.relpath(path, srcdir), 'c', text,
                            head if 'example:' in head else '')


def blocks(srcdir, files):
    if not files:
        files = [os.path.join(srcdir, 'README.md')]
        for root, _, names in os.walk(os.path.join(srcdir, 'docs')):
            files += [os.path.join(root, n) for n in sorted(names)
                      if n.endswith('.md') or re.search(r'\.[1-8]$', n)]
        yield from example_files(srcdir)
    for path in files:
        rel = os.path.relpath(path, srcdir)
        if path.endswith('.md'):
            yield from markdown_blocks(path, rel)
        else:
            yield from man_blocks(path, rel)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          universal_newlines=True, **kw)


def check(block, srcdir, builddir, scratch, n):
    """None when the block passes, else why not."""
    kind = block.kind
    if kind in ('compile-only', 'skip') and not block.reason:
        return 'marked %s without a reason' % kind
    if kind == 'skip':
        return None
    if block.lang == 'sh':
        if kind != 'run':
            return None
        env = dict(os.environ, PATH=os.path.join(builddir, 'src') + os.pathsep + os.environ['PATH'])
        work = tempfile.mkdtemp(dir=scratch)
        r = run(['timeout', '120', 'sh', '-euc', block.text], cwd=work, env=env)
        return None if r.returncode == block.exit else \
            'exit %d, not %d:\n%s' % (r.returncode, block.exit, r.stdout)
    if block.lang == 'yaml':
        path = os.path.join(scratch, 'block%d.yaml' % n)
        with open(path, 'w', encoding='utf-8') as f:
            f.write(block.text)
        r = run([os.path.join(builddir, 'src', 'sandboxio'), 'profiles', 'check', path])
        return None if r.returncode == block.exit else \
            'sandboxio profiles check: exit %d, not %d:\n%s' % (r.returncode, block.exit, r.stdout)
    src = os.path.join(scratch, 'block%d.c' % n)
    text = block.text if kind == 'compile-only' else FOREIGN_DSN.sub('"fake://"', block.text)
    with open(src, 'w', encoding='utf-8') as f:
        f.write(text)
    libs = os.path.join(builddir, 'src', '.libs')
    exe = os.path.join(scratch, 'block%d' % n)
    cc = shlex.split(os.environ.get('CC') or 'cc')
    flags = ['-std=gnu11', '-Wall', '-Wextra', '-Werror'] + \
        shlex.split(os.environ.get('CFLAGS', '')) + \
        ['-I' + os.path.join(srcdir, 'include'), '-I' + builddir]
    if kind == 'compile-only':
        cmd = cc + flags + ['-c', '-o', exe + '.o', src]
    else:
        cmd = cc + flags + ['-o', exe, src] + shlex.split(os.environ.get('LDFLAGS', '')) + \
            ['-L' + libs, '-Wl,-rpath,' + libs, '-lsandboxio']
    r = run(cmd)
    if r.returncode != 0:
        return 'does not compile:\n%s' % r.stdout
    if kind == 'compile-only':
        return None
    if 'local://' in text and not os.path.exists(
            os.path.join(builddir, 'plugins', 'local', '.libs', 'sandboxio-local.so')):
        return None     # the backend it needs is left out of this build
    r = run(['timeout', '120', exe] + block.args, cwd=scratch)
    if r.returncode != block.exit:
        return 'exit %d, not %d:\n%s' % (r.returncode, block.exit, r.stdout)
    return None


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    srcdir, builddir = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    files = [os.path.abspath(p) for p in sys.argv[3:]]
    counts, failed = {}, 0
    with tempfile.TemporaryDirectory() as scratch:
        for n, block in enumerate(blocks(srcdir, files)):
            why = check(block, srcdir, builddir, scratch, n)
            kind = block.kind if block.kind != 'default' else \
                {'c': 'run', 'yaml': 'checked'}.get(block.lang, 'not runnable')
            counts['%s %s' % (block.lang, kind)] = counts.get('%s %s' % (block.lang, kind), 0) + 1
            if why:
                failed += 1
                print('FAIL: %s (%s block): %s' % (block.where, block.lang, why))
            else:
                print('ok: %s (%s, %s)' % (block.where, block.lang, kind))
    summary = ', '.join('%d %s' % (v, k) for k, v in sorted(counts.items()))
    if failed:
        print('FAIL: %d of the docs\' code blocks (%s)' % (failed, summary))
        return 1
    if not counts:
        print('FAIL: no code block found')
        return 1
    print('PASS: %s' % summary)
    return 0


if __name__ == '__main__':
    sys.exit(main())
