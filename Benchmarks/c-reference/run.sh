#!/bin/sh
# Compile the C yardstick (gcc -O2) into a temporary directory and run it on
# an evemu recording.  Usage: Benchmarks/c-reference/run.sh capture.evemu
# Prints: events=N peeks=P pops=Q seconds=T events_per_second=R
set -eu
if [ $# -ne 1 ]; then
    echo "usage: $0 capture.evemu" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/evemu_thresholds.XXXXXX")
trap 'rm -rf "$tmp"' EXIT INT TERM
${CC:-gcc} -O2 -Wall -Wextra -o "$tmp/evemu_thresholds" "$here/evemu_thresholds.c"
"$tmp/evemu_thresholds" "$1"
