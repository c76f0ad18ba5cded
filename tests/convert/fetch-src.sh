#!/bin/sh
# tests/convert/fetch-src.sh PKG VERSION DIR: Debian's source of PKG (whose
# upstream version is VERSION) extracted in DIR.  Adds deb-src lines
# (/etc/apt/sources.list.d/librefcount-src.sources, from the machine's deb
# lines) when apt has none, as nullblk's fio source does.
set -e
pkg=$1 ver=$2 dir=$3
[ -n "$dir" ] || { echo "usage: $0 PKG VERSION DIR" >&2; exit 2; }
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
if ! apt-cache showsrc "$pkg" 2>/dev/null | grep -q "^Version: $ver"; then
	if [ -r /etc/apt/sources.list.d/debian.sources ]; then
		sed -n 's/^Types:.*deb\b.*/Types: deb-src/p;/^Types:/!p' \
			/etc/apt/sources.list.d/debian.sources |
			$SUDO tee /etc/apt/sources.list.d/librefcount-src.sources >/dev/null
	fi
	$SUDO apt-get update -qq >&2 || echo "fetch-src: apt-get update had errors" >&2
fi
tmp=$dir.tmp
rm -rf "$tmp" "$dir"
mkdir -p "$tmp"
(cd "$tmp" && apt-get source -qq --download-only "$pkg" 2>&1 | grep -v unsandboxed >&2 || true)
dsc=$(ls "$tmp"/"$pkg"_"$ver"*.dsc)
# apt-get checked the files against the signed Release file
dpkg-source -q --no-check -x "$dsc" "$tmp/src" >&2
mv "$tmp/src" "$dir"
rm -rf "$tmp"
