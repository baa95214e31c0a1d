#!/bin/sh
# check-uninstalled-pc.sh BUILD_DIR: libpressured-uninstalled.pc (what a build against this tree uses,
# as debian/rules builds the QML module) names only directories that exist, pressured.h in one of them,
# and none holding the library's private headers (src/).
set -eu
cflags=$(PKG_CONFIG_PATH="$1/meson-uninstalled" pkg-config --cflags libpressured)
found=no
for f in $cflags; do
    case $f in -I*) ;; *) continue ;; esac
    d=${f#-I}
    [ -d "$d" ] || { echo "FAIL: $d (from the uninstalled .pc) does not exist"; exit 1; }
    [ ! -f "$d/private.h" ] || { echo "FAIL: $d holds the private headers"; exit 1; }
    [ ! -f "$d/pressured.h" ] || found=yes
done
[ $found = yes ] || { echo "FAIL: pressured.h is in none of: $cflags"; exit 1; }
echo "uninstalled .pc: $cflags"
