#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""check-docs-site.py SITE SRCDIR: the built documentation site holds.

SITE is the output of `mkdocs build --strict` (mkdocs.yml). mkdocs 1.4
(Debian 12's) checks that a link names a page, not that its #anchor names a
heading of that page, and its heading ids are not GitHub's (which
scripts/check-doc-links.py checks on the Markdown). So on the HTML itself:
every relative link names a file of the site, every #anchor an id of that
file, and every error page SRCDIR/docs/errors/SBX_Ennnn.md has its
errors/SBX_Ennnn.html (the page an error's docs URL names). Exit 1 on any
failure, listing each.
"""
import os
import sys
import urllib.parse
from html.parser import HTMLParser


class Page(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.links = set(), []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            if name in ('id', 'name') and value:
                self.ids.add(value)
            if name in ('href', 'src') and value is not None:
                self.links.append((self.getpos()[0], value))


def parse(path, cache={}):
    if path not in cache:
        p = Page()
        with open(path, encoding='utf-8') as f:
            p.feed(f.read())
        cache[path] = p
    return cache[path]


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    site, src = sys.argv[1], sys.argv[2]
    bad = []
    for root, _, files in os.walk(site):
        for name in sorted(files):
            if not name.endswith('.html'):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, site)
            for line, link in parse(path).links:
                u = urllib.parse.urlsplit(link)
                if u.scheme or u.netloc or link.startswith('/'):
                    continue        # external: check-doc-links.py checks those
                target = path
                if u.path:
                    target = os.path.normpath(os.path.join(root, urllib.parse.unquote(u.path)))
                    if os.path.isdir(target):
                        target = os.path.join(target, 'index.html')
                    if not os.path.isfile(target):
                        bad.append(f'{rel}:{line}: {link}: no such file in the site')
                        continue
                if u.fragment and target.endswith('.html') and \
                        urllib.parse.unquote(u.fragment) not in parse(target).ids:
                    bad.append(f'{rel}:{line}: {link}: no such anchor')
    pages = sorted(n[:-3] for n in os.listdir(os.path.join(src, 'docs', 'errors'))
                   if n.startswith('SBX_E') and n.endswith('.md'))
    for code in pages:
        if not os.path.isfile(os.path.join(site, 'errors', code + '.html')):
            bad.append(f'errors/{code}.html: missing')
    for b in bad:
        print(b)
    if bad:
        print(f'check-docs-site: {len(bad)} dead link(s) or missing page(s)')
        return 1
    if not pages:
        print('check-docs-site: no error page found under docs/errors')
        return 1
    print(f'check-docs-site: every link and anchor resolves; {len(pages)} error pages')
    return 0


if __name__ == '__main__':
    sys.exit(main())
