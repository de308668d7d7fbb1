#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# md2man.sh - an error catalog page (docs/errors/*.md) as a man page.
#
#   md2man.sh VERSION PAGE.md > PAGE.7
#
# SBX_Ennnn.md becomes SBX_Ennnn(7), README.md the index sandboxio-errors(7),
# so that `man SBX_E1001` reads a page offline. The pages use a small part
# of Markdown, and this knows that part alone: a "# ID: summary" first line,
# "## " sections, paragraphs, "- " lists (continued by lines indented two
# spaces), code blocks indented four spaces (six inside a list), tables,
# `code`, **bold** and [links](target). Anything else it cannot render
# faithfully - a "###" heading, a fenced block, a byte that is not ASCII
# other than the pages' middle dot and e acute - fails the build, naming
# the line, rather than giving a page that reads wrong.
set -eu
[ $# -eq 2 ] || { echo "usage: $0 VERSION PAGE.md" >&2; exit 2; }
version=$1
page=$2
base=${page##*/}
base=${base%.md}
case $base in
README) name=sandboxio-errors ;;
SBX_E[0-9][0-9][0-9][0-9]) name=$base ;;
*) echo "$page: not an error catalog page" >&2; exit 1 ;;
esac

LC_ALL=C awk -v name="$name" -v version="$version" -v file="$page" '
function fail(msg) { printf "%s:%d: %s\n", file, NR, msg > "/dev/stderr"; failed = 1; exit 1 }
# Plain text for roff: backslashes escaped, the two non-ASCII characters named.
function plain(s) {
    gsub(/\\/, "\\\\e", s)
    gsub(/\302\267/, "\\\\(md", s)
    gsub(/\303\251/, "\\\\(\047e", s)
    if (s ~ /[\200-\377]/)
        fail("a character the man page converter does not know")
    return s
}
# Literal text (code): also each "-" a minus, so that a command copied works.
function literal(s) {
    s = plain(s)
    gsub(/-/, "\\\\-", s)
    return s
}
# Inline markup: `code` and **bold** in bold, links as their text (another
# catalog page as its man page name).
function inline(s,    out, tok, text, target) {
    out = ""
    while (match(s, /`[^`]*`|\*\*[^*]+\*\*|\[[^]]*\]\([^)]*\)/)) {
        out = out plain(substr(s, 1, RSTART - 1))
        tok = substr(s, RSTART, RLENGTH)
        s = substr(s, RSTART + RLENGTH)
        if (tok ~ /^`/)
            out = out "\\fB" literal(substr(tok, 2, length(tok) - 2)) "\\fR"
        else if (tok ~ /^\*\*/)
            out = out "\\fB" plain(substr(tok, 3, length(tok) - 4)) "\\fR"
        else {
            text = tok; sub(/\]\(.*$/, "", text); text = substr(text, 2)
            target = tok; sub(/^\[[^]]*\]\(/, "", target); sub(/\)$/, "", target)
            if (target ~ /^SBX_E[0-9][0-9][0-9][0-9]\.md$/) {
                sub(/\.md$/, "", target)
                out = out (text == target ? "\\fB" target "\\fR(7)" : inline(text) " (\\fB" target "\\fR(7))")
            } else if (target ~ /^https?:/)
                out = out inline(text) " <" plain(target) ">"
            else
                out = out inline(text)
        }
    }
    return out plain(s)
}
# A line of filled text: one starting with a control character is escaped.
function emit(s) {
    if (s ~ /^[.\047]/)
        s = "\\&" s
    print s
}
function cell(s) { sub(/^ +/, "", s); sub(/ +$/, "", s); return inline(s) }
NR == 1 {
    if ($0 !~ /^# /)
        fail("the first line is not \"# ID: summary\"")
    title = substr($0, 3)
    summary = title
    if (name != "sandboxio-errors") {
        if (index(title, name ": ") != 1)
            fail("the title does not start with \"" name ": \"")
        summary = substr(title, length(name) + 3)
    }
    printf ".TH %s 7 \"\" \"sandboxio %s\" \"sandboxio errors\"\n", name, version
    print ".SH NAME"
    emit(name " \\- " inline(summary))
    print ".SH DESCRIPTION"
    para = 1
    next
}
# Tables: a row per entry, its first cell as the tag; the header row goes.
/^\|/ {
    if (incode) { print ".fi"; incode = 0 }
    n = split($0, cells, "|")
    if ($0 ~ /^\|[-| ]+\|$/) { next }
    if (!intable) { intable = 1; next }
    rest = ""
    for (i = 3; i < n; i++)
        rest = rest (rest == "" ? "" : " \\(em ") cell(cells[i])
    print ".TP"
    emit(cell(cells[2]))
    emit(rest)
    next
}
{ intable = 0 }
/^###/ { fail("a heading below \"##\"") }
/^```/ { fail("a fenced code block (indent it four spaces)") }
/^## / {
    if (incode) { print ".fi"; incode = 0 }
    s = substr($0, 4)
    print ".SH " toupper(s)
    inlist = 0; para = 1; blank = 0
    next
}
/^[ \t]*$/ { blank = 1; next }
{
    line = $0
    indent = match(line, /[^ ]/) - 1
    codeat = inlist ? 6 : 4
    if (indent >= codeat && (blank || incode)) {
        if (!incode) {
            print (inlist ? ".IP \"\" 6" : ".IP \"\" 4")
            print ".nf"
            incode = 1
        }
        emit(literal(substr(line, codeat + 1)))
        blank = 0
        next
    }
    if (incode) { print ".fi"; incode = 0 }
    if (line ~ /^- /) {
        print ".IP \\(bu 2"
        inlist = 1
        emit(inline(substr(line, 3)))
    } else if (inlist && (indent >= 2 || !blank)) {
        if (blank)
            print ".IP \"\" 2"
        sub(/^ +/, "", line)
        emit(inline(line))
    } else {
        if (blank || inlist || para) {
            print ".PP"
        }
        inlist = 0
        emit(inline(line))
    }
    blank = 0; para = 0
}
END {
    if (failed)
        exit 1
    if (incode)
        print ".fi"
    if (name != "sandboxio-errors") {
        print ".SH SEE ALSO"
        print "\\fBsandboxio-errors\\fR(7), \\fBsandboxio\\fR(1)"
    } else {
        print ".SH SEE ALSO"
        print "\\fBsandboxio\\fR(1), \\fBsbx_error\\fR(3)"
    }
}
' "$page"
