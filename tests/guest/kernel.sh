#!/bin/sh
# Debian's kernel for the test guest, never installed as this machine's
# kernel: the package linux-image-amd64 depends on (linux-image-6.1.*-amd64
# on bookworm) is fetched with `apt-get download`, unpacked with
# `dpkg-deb -x` and its module index made with `depmod -b`, once, in
#
#   CACHE/PACKAGE_VERSION/{boot/vmlinuz-*,lib/modules/RELEASE/}
#
# CACHE is the first argument. Prints that directory on the last line of
# stdout. A cache of an older version is removed once a newer one is whole
# (each is about 400 MB). Without the package index (a root made by
# mmdebstrap keeps none) it runs `apt-get update` when root. When no
# kernel can be had (no index and not root, no network) and none is
# cached, exits 77 saying why; when the index cannot be read but a kernel
# is cached, uses the newest cached one.
set -u
cache=${1:?usage: kernel.sh CACHE-DIR}
mkdir -p "$cache" || exit 1
cache=$(cd "$cache" && pwd)
# The boots of one suite (tests/run-all.sh starts them side by side) ask
# at once: one at a time, so that one runs apt-get update and fetches
# while the others wait and then find the kernel whole.
if command -v flock >/dev/null 2>&1; then
	exec 9>"$cache/.lock" && flock 9
fi

skip() {
	echo "SKIP: $*"
	exit 77
}

for c in apt-get apt-cache dpkg-deb depmod; do
	command -v "$c" >/dev/null 2>&1 ||
		skip "no $c (the guest's kernel comes from Debian's archive)"
done

# The kernel package the metapackage points at: its candidate's Depends.
image_pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9][^ ]*-amd64\)$/\1/p' |
		head -n 1
}

# The newest whole cache, when the archive cannot be asked.
cached() {
	ls -d "$cache"/linux-image-*/.whole 2>/dev/null | sort -V | tail -n 1 |
		sed 's,/\.whole$,,'
}

pkg=$(image_pkg)
if [ -z "$pkg" ] && [ "$(id -u)" = 0 ]; then
	apt-get update -qq >"$cache/update.log" 2>&1
	pkg=$(image_pkg)
fi
if [ -z "$pkg" ]; then
	old=$(cached)
	[ -n "$old" ] && { echo "$old"; exit 0; }
	skip "apt-cache knows no linux-image-amd64 (run apt-get update as root)"
fi
ver=$(apt-cache show --no-all-versions "$pkg" 2>/dev/null |
	sed -n 's/^Version: //p' | head -n 1)
[ -n "$ver" ] || skip "apt-cache shows no version of $pkg"
dir=$cache/${pkg}_$ver
if [ -e "$dir/.whole" ]; then
	echo "$dir"
	exit 0
fi

# Fetched and unpacked beside the cache, moved into place whole.
tmp=$(mktemp -d "$cache/tmp.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
echo "fetching $pkg $ver (once; cached in $cache)" >&2
( cd "$tmp" && apt-get download -q "$pkg=$ver" ) >"$tmp/download.log" 2>&1 ||
	{ old=$(cached)
	  [ -n "$old" ] && { echo "$old"; exit 0; }
	  cat "$tmp/download.log" >&2
	  skip "apt-get download $pkg=$ver failed (no network?)"; }
deb=$(ls "$tmp"/*.deb 2>/dev/null | head -n 1)
[ -n "$deb" ] || { echo "apt-get download left no .deb" >&2; exit 1; }
mkdir "$tmp/root" && dpkg-deb -x "$deb" "$tmp/root" ||
	{ echo "dpkg-deb -x $deb failed" >&2; exit 1; }
rm -f "$deb"
rel=$(ls "$tmp/root/lib/modules" 2>/dev/null | head -n 1)
[ -n "$rel" ] && [ -e "$tmp/root/boot/vmlinuz-$rel" ] ||
	{ echo "$pkg has no /boot/vmlinuz-RELEASE and /lib/modules/RELEASE" >&2
	  exit 1; }
depmod -b "$tmp/root" "$rel" || { echo "depmod -b failed" >&2; exit 1; }
touch "$tmp/root/.whole"
# Another run may have put the same kernel in place meanwhile: keep its.
if [ ! -e "$dir/.whole" ]; then
	rm -rf "$dir"
	mv "$tmp/root" "$dir" || exit 1
fi
for old in "$cache"/linux-image-*; do
	[ "$old" = "$dir" ] || rm -rf "$old"
done
echo "$dir"
