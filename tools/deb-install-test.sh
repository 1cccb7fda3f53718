#!/bin/sh
# deb-install-test.sh - installs the package in a clean Debian 12 root and
# purges it again, and fails if that left a file behind. The root is made
# once with debootstrap (minbase, bookworm; kept in ROOT for the next run),
# with systemd, man-db and the package's libraries installed first, so that the
# comparison sees the package alone and its maintainer scripts find
# deb-systemd-helper as on a real machine (the services are not started: a
# chroot runs no systemd). Ends with "deb-install-test: N passed, N failed".
# Usage: deb-install-test.sh PACKAGE.deb ROOT   (as root)
set -eu
deb=$1 root=$2
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

if [ ! -f "$root/.sudokud-base" ]; then
    rm -rf "$root"
    echo "deb-install-test: debootstrap bookworm into $root (a few minutes)"
    debootstrap --variant=minbase bookworm "$root" http://deb.debian.org/debian \
        > "$root.log" 2>&1 || { tail -20 "$root.log"; exit 1; }
    touch "$root/.sudokud-base"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
mkdir -p "$root/proc"
mountpoint -q "$root/proc" || mount -t proc proc "$root/proc"
trap 'umount "$root/proc" 2>/dev/null || true' EXIT
in_root() { chroot "$root" env DEBIAN_FRONTEND=noninteractive LC_ALL=C "$@"; }

# The package's dependencies (and systemd), before the first file list.
deps=$(dpkg-deb -f "$deb" Depends | sed 's/([^)]*)//g; s/,/ /g; s/|[^,]*//g')
in_root apt-get update -q > /dev/null
in_root apt-get install -y -q --no-install-recommends systemd man-db $deps > /dev/null
# Every path of the root but the kernel's, apt's and man's caches, logs, and
# /run (a tmpfs on a real machine; systemctl and systemd-analyze leave
# their state there).
snapshot() {
    (cd "$root" && find . -xdev \( -path ./proc -o -path ./run -o -path ./var/cache/apt \
        -o -path ./var/lib/apt/lists -o -path ./var/log -o -path ./tmp \
        -o -path ./var/cache/man \) -prune -o -print | sort)
}
snapshot > "$root.before"

cp "$deb" "$root/tmp/sudokud.deb"
if in_root dpkg -i /tmp/sudokud.deb > "$root.install.log" 2>&1; then
    ok "dpkg -i on a clean Debian 12 root"
else
    bad "dpkg -i"; cat "$root.install.log"
fi
for f in /usr/sbin/sudokud /usr/bin/sudoku /usr/share/man/man8/sudokud.8.gz \
         /usr/share/man/man1/sudoku.1.gz /lib/systemd/system/sudokud.service \
         /lib/systemd/system/sudokud.socket /etc/default/sudokud; do
    if [ -e "$root$f" ]; then ok "installed $f"; else bad "missing $f"; fi
done
if in_root /usr/sbin/sudokud --version | grep -q '^sudokud '; then
    ok "sudokud --version runs with the installed libraries"
else bad "sudokud --version"; fi
if echo '4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......' |
    in_root /usr/bin/sudoku solve | grep -qE '^[1-9]{81}$'; then
    ok "sudoku solve"
else bad "sudoku solve"; fi
for u in sudokud.socket sudokud.service; do
    if in_root systemctl is-enabled "$u" 2>/dev/null | grep -q enabled; then
        ok "$u enabled by the maintainer scripts"
    else bad "$u not enabled"; fi
done
if in_root systemd-analyze verify /lib/systemd/system/sudokud.service \
    /lib/systemd/system/sudokud.socket > "$root.verify.log" 2>&1; then
    ok "systemd-analyze verify of the installed units"
else bad "systemd-analyze verify"; cat "$root.verify.log"; fi
for m in man8/sudokud.8.gz man1/sudoku.1.gz; do
    if [ -z "$(zcat "$root/usr/share/man/$m" | groff -ww -z -man 2>&1)" ]; then
        ok "installed $m renders without a groff warning"
    else bad "groff warns on the installed $m"; fi
done

if in_root dpkg -P sudokud > "$root.purge.log" 2>&1; then
    ok "dpkg -P sudokud"
else bad "dpkg -P"; cat "$root.purge.log"; fi
rm -f "$root/tmp/sudokud.deb"
snapshot > "$root.after"
left=$(comm -13 "$root.before" "$root.after")
gone=$(comm -23 "$root.before" "$root.after")
if [ -z "$left" ] && [ -z "$gone" ]; then
    ok "after dpkg -P the root has exactly the files it had ($(wc -l < "$root.before") paths)"
else
    bad "dpkg -P left a difference"
    printf 'left behind:\n%s\ngone:\n%s\n' "$left" "$gone"
fi
echo "deb-install-test: $pass passed, $fail failed"
[ "$fail" = 0 ]
