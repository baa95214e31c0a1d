#!/bin/sh
# check-man.sh HEADER MANDIR PAGE...: every function the header declares is named in the NAME section
# and prototyped in the SYNOPSIS of a man page, and the installed PAGEs are every page of MANDIR.
set -eu
header=$1 mandir=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -oE '\bpressured_[a-z_0-9]+\(' "$header" | tr -d '(' | sort -u >"$tmp/declared"
for page in "$mandir"/*.3; do
    awk '/^\.SH NAME/{n=1;next} /^\.SH/{n=0} n' "$page" | tr ',' '\n' | grep -oE 'pressured_[a-z_0-9]+' >>"$tmp/named" || true
    awk '/^\.SH SYNOPSIS/{n=1;next} /^\.SH/{n=0} n' "$page" | grep -oE 'pressured_[a-z_0-9]+\(' | tr -d '(' >>"$tmp/prototyped" || true
done
fail=0
for f in $(cat "$tmp/declared"); do
    grep -qx "$f" "$tmp/named" || { echo "FAIL: $f is in no man page's NAME"; fail=1; }
    grep -qx "$f" "$tmp/prototyped" || { echo "FAIL: $f is in no man page's SYNOPSIS"; fail=1; }
done
ls "$mandir" | grep '\.3$' | sort >"$tmp/pages"
for p in "$@"; do basename "$p"; done | sort >"$tmp/installed"
if ! diff -u "$tmp/pages" "$tmp/installed"; then
    echo "FAIL: the pages installed (meson.build's man_pages) differ from those in $mandir"; fail=1
fi
[ $fail = 0 ] && echo "man: $(wc -l <"$tmp/declared") functions, each named and prototyped; $(wc -l <"$tmp/pages") pages installed"
exit $fail
