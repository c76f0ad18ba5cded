#!/bin/sh
# convert/lab/fetch-src.sh PKG VERSION DIR: Debian's source of PKG (whose
# Debian version starts with VERSION, epoch included when it has one) extracted in DIR.  When apt knows no source
# of that version, adds deb-src entries made from the machine's deb ones
# (deb822 /etc/apt/sources.list.d/debian.sources, or one-line
# /etc/apt/sources.list), as nullblk's fio source does, and updates.
# Callers hold /tmp/apt.lock.
set -e
pkg=$1 ver=$2 dir=$3
[ -n "$dir" ] || { echo "usage: $0 PKG VERSION DIR" >&2; exit 2; }
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
has_src() { apt-cache showsrc "$pkg" 2>/dev/null | grep -q "^Version: $ver"; }
if ! has_src; then
	if [ -r /etc/apt/sources.list.d/debian.sources ]; then
		sed -n 's/^Types:.*deb\b.*/Types: deb-src/p;/^Types:/!p' \
			/etc/apt/sources.list.d/debian.sources |
			$SUDO tee /etc/apt/sources.list.d/librefcount-src.sources >/dev/null
	fi
	if [ -r /etc/apt/sources.list ] && grep -q '^deb ' /etc/apt/sources.list; then
		sed -n 's/^deb /deb-src /p' /etc/apt/sources.list |
			$SUDO tee /etc/apt/sources.list.d/librefcount-src.list >/dev/null
	fi
	echo "fetch-src: no source of $pkg $ver known: added deb-src entries, updating" >&2
	$SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq >&2 || echo "fetch-src: apt-get update had errors" >&2
	has_src || { echo "fetch-src: apt has no source of $pkg $ver" >&2; exit 1; }
fi
tmp=$dir.tmp
rm -rf "$tmp" "$dir"
mkdir -p "$tmp"
(cd "$tmp" && apt-get source -qq --download-only "$pkg=$(apt-cache showsrc "$pkg" |
	sed -n "s/^Version: \($ver.*\)/\1/p" | head -1)" 2>&1 | grep -v unsandboxed >&2 || true)
dsc=$(ls "$tmp"/"$pkg"_"${ver#*:}"*.dsc)  # file names carry no epoch
# apt-get checked the files against the signed Release file
dpkg-source -q --no-check -x "$dsc" "$tmp/src" >&2
mv "$tmp/src" "$dir"
rm -rf "$tmp"
