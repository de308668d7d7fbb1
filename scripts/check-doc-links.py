#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check-doc-links.py SRCDIR [FILE...]: every link of the docs resolves.

In Markdown (README.md, SECURITY.md, CHANGELOG.md, CONTRIBUTING.md, docs/,
.github/): a relative link names a file or directory of the tree, and its
#anchor a heading (GitHub's slug) or an <a id=...> of that file; a link that
leaves the tree (http, https, mailto) starts with a prefix of
docs/external-links.txt. In man pages (docs/man): every "name(N)" cross
reference is a page of docs/man or a system page listed in
docs/external-links.txt as "man:name(N)", and every URL an allowed prefix.
Without FILE arguments, checks the whole tree. Exit 1 on any dead link.
"""
import os
import re
import sys

FENCE = re.compile(r'^\s*(```|~~~)')
HEADING = re.compile(r'^(#{1,6})\s+(.*?)\s*#*\s*$')
LINK = re.compile(r'!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)')
AUTOLINK = re.compile(r'<((?:https?|mailto):[^>\s]+)>')
HTML_ID = re.compile(r'<a\s+(?:id|name)="([^"]+)"')
CODE_SPAN = re.compile(r'`[^`]*`')
MAN_REF = re.compile(r'^\.(?:BR|B|IR|I)\s+"?([A-Za-z0-9_.-]+)"?\s+\((\d[a-z]*)\)')
# A scheme with nothing after it ("plain http:// only") names no place.
URL = re.compile(r'(?:https?://|mailto:)[^\s"\'<>)\\]+')


def slug(text):
    """GitHub's anchor for a heading: lower case, punctuation dropped."""
    text = re.sub(r'`([^`]*)`', r'\1', text)
    text = re.sub(r'\[([^\]]*)\]\([^)]*\)', r'\1', text)
    text = re.sub(r'[*_]{1,2}([^*_]+)[*_]{1,2}', r'\1', text)
    text = text.strip().lower()
    text = re.sub(r'[^\w\- ]', '', text)
    return text.replace(' ', '-')


def markdown_lines(path):
    """(line number, text) of each line outside fenced code blocks."""
    inside = False
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if FENCE.match(line):
                inside = not inside
                continue
            if not inside:
                yield n, line


def anchors(path, cache={}):
    if path not in cache:
        seen, found = {}, set()
        for _, line in markdown_lines(path):
            found.update(HTML_ID.findall(line))
            m = HEADING.match(line)
            if not m:
                continue
            s = slug(m.group(2))
            k = seen.get(s, 0)
            seen[s] = k + 1
            found.add(s if k == 0 else '%s-%d' % (s, k))
        cache[path] = found
    return cache[path]


def allowed_external(srcdir):
    allowed = []
    with open(os.path.join(srcdir, 'docs', 'external-links.txt'), encoding='utf-8') as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith('#'):
                allowed.append(line)
    return allowed


def check_markdown(srcdir, path, allowed, errors):
    rel = os.path.relpath(path, srcdir)
    for n, line in markdown_lines(path):
        line = CODE_SPAN.sub('', line)
        targets = LINK.findall(line) + AUTOLINK.findall(line)
        for target in targets:
            where = '%s:%d: %s' % (rel, n, target)
            if re.match(r'^[a-z][a-z0-9+.-]*:', target):
                if not any(target.startswith(a) for a in allowed):
                    errors.append(where + ': external link not in docs/external-links.txt')
                continue
            file_part, _, frag = target.partition('#')
            dest = path if not file_part else os.path.normpath(
                os.path.join(os.path.dirname(path), file_part))
            if not os.path.realpath(dest).startswith(os.path.realpath(srcdir) + os.sep):
                errors.append(where + ': leaves the source tree')
                continue
            if not os.path.exists(dest):
                errors.append(where + ': no such file')
                continue
            if frag and dest.endswith('.md') and frag not in anchors(dest):
                errors.append(where + ': no heading or anchor "%s" in %s' %
                              (frag, os.path.relpath(dest, srcdir)))


def check_man(srcdir, path, allowed, errors):
    rel = os.path.relpath(path, srcdir)
    mandir = os.path.dirname(path)
    inside = False
    with open(path, encoding='utf-8') as f:
        for n, line in enumerate(f, 1):
            if line.startswith('.EX'):
                inside = True
            elif line.startswith('.EE'):
                inside = False
            if inside:
                continue
            m = MAN_REF.match(line)
            if m:
                name, sec = m.group(1).replace('\\-', '-'), m.group(2)
                if not os.path.exists(os.path.join(mandir, '%s.%s' % (name, sec))) and \
                        'man:%s(%s)' % (name, sec) not in allowed:
                    errors.append('%s:%d: %s(%s): no such page in docs/man, and not an allowed '
                                  'system page' % (rel, n, name, sec))
            for url in URL.findall(line.replace('\\-', '-')):
                if not any(url.startswith(a) for a in allowed):
                    errors.append('%s:%d: %s: external link not in docs/external-links.txt' %
                                  (rel, n, url))


def tree_files(srcdir):
    for name in ('README.md', 'SECURITY.md', 'CHANGELOG.md', 'CONTRIBUTING.md'):
        if os.path.exists(os.path.join(srcdir, name)):
            yield os.path.join(srcdir, name)
    for top in ('docs', '.github', 'examples'):
        for root, _, files in os.walk(os.path.join(srcdir, top)):
            for name in sorted(files):
                if name.endswith('.md') or re.search(r'\.[1-8]$', name):
                    yield os.path.join(root, name)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    srcdir = os.path.abspath(sys.argv[1])
    files = [os.path.abspath(p) for p in sys.argv[2:]] or list(tree_files(srcdir))
    allowed = allowed_external(srcdir)
    errors = []
    for path in files:
        if path.endswith('.md'):
            check_markdown(srcdir, path, allowed, errors)
        else:
            check_man(srcdir, path, allowed, errors)
    for e in errors:
        print('FAIL: ' + e)
    if errors:
        return 1
    print('PASS: the links of %d files resolve' % len(files))
    return 0


if __name__ == '__main__':
    sys.exit(main())
