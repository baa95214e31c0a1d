#!/bin/sh
# check-symbols.sh LIB HEADER: the shared library exports every function the header declares, each
# versioned PRESSURED_0 or a later node (PRESSURED_1: functions added since 0.1.0), and nothing else.
set -eu
lib=$1
header=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
grep -oE '\bpressured_[a-z_0-9]+\(' "$header" | tr -d '(' | sort -u >"$tmp/declared"
objdump -T "$lib" | awk '$NF ~ /^pressured_/ && $0 !~ /\*UND\*/ {print $(NF-1), $NF}' >"$tmp/dyn"
awk '{print $2}' "$tmp/dyn" | sort -u >"$tmp/exported"
if ! diff -u "$tmp/declared" "$tmp/exported"; then
    echo "FAIL: exported symbols differ from the header's functions"; exit 1
fi
if awk '$1 != "PRESSURED_0" && $1 != "PRESSURED_1" {bad=1} END {exit !bad}' "$tmp/dyn"; then
    echo "FAIL: symbols at no known version:"; awk '$1 != "PRESSURED_0" && $1 != "PRESSURED_1"' "$tmp/dyn"; exit 1
fi
echo "symbols: $(wc -l <"$tmp/exported") exported, at PRESSURED_0 and PRESSURED_1"
