#!/bin/sh
# The C kiosk example prints what the Python kiosk example prints, on the same replay.
#   test-kiosk.sh KIOSK REPO_ROOT
set -eu
kiosk=$1
root=$2
bin=${PRESSURED_BIN_DIR:-}
[ -n "$bin" ] || bin=$(cd "$root" && swift build --show-bin-path 2>/dev/null) || true
if [ -z "$bin" ] || [ ! -x "$bin/pressured" ]; then
    echo "SKIP: no pressured (set PRESSURED_BIN_DIR)"; exit 77
fi
python=/usr/bin/python3
if ! PYTHONPATH="$root/clients/python" "$python" -c 'import pressured' 2>/dev/null; then
    echo "SKIP: $python cannot import clients/python's pressured"; exit 77
fi
dir=$(mktemp -d /tmp/libpressured-kiosk-XXXXXX)
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$dir"' EXIT

# run NAME CMD...: a fresh daemon replaying demo.evemu, CMD's output in $dir/NAME.out
run() {
    name=$1; shift
    sock=$dir/$name.sock
    (cd "$root" && exec "$bin/pressured" --socket "$sock" --state-directory "$dir/state-$name" \
        --replay Tests/Fixtures/demo.evemu --speed 0 --exit-when-done) >"$dir/$name.log" 2>&1 &
    pid=$!
    i=0
    while [ ! -S "$sock" ]; do
        i=$((i + 1)); [ $i -lt 500 ] || { echo "pressured did not start"; cat "$dir/$name.log"; exit 1; }
        sleep 0.02
    done
    timeout 60 "$@" --socket "$sock" >"$dir/$name.out"
    wait $pid || true
    pid=
}
run python env PYTHONPATH="$root/clients/python" "$python" "$root/clients/python/examples/kiosk_example.py"
run c "$kiosk"
if ! diff -u "$dir/python.out" "$dir/c.out"; then
    echo "FAIL: the C kiosk's output differs from the Python kiosk's"; exit 1
fi
grep -q -- '-> open the item' "$dir/c.out" || { echo "FAIL: no pop in the output"; cat "$dir/c.out"; exit 1; }
echo "kiosk: $(wc -l <"$dir/c.out") lines, the same as the Python example's"
