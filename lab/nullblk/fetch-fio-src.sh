#!/bin/sh
# lab/nullblk/fetch-fio-src.sh DIR: put the source of the installed Debian fio in
# DIR and configure it, so that an external ioengine compiles against the
# headers of the very fio that will dlopen it.
#
# The version comes from dpkg (it is the one `fio --version` prints).  Debian
# images often ship without deb-src lines; if apt cannot see the source
# package, this adds /etc/apt/sources.list.d/librefcount-src.sources, a copy
# of the machine's own deb lines with Types: deb-src, and updates apt.
set -e
dir=$1
[ -n "$dir" ] || { echo "usage: $0 DIR" >&2; exit 2; }
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo

ver=$(dpkg-query -W -f='${Version}' fio)
upstream=${ver#*:}
upstream=${upstream%-*}
fio --version | grep -qx "fio-$upstream" || {
	echo "fetch-fio-src: fio --version is $(fio --version), dpkg says $ver" >&2
	exit 1
}

if ! apt-cache showsrc fio 2>/dev/null | grep -qx "Version: $ver"; then
	src=/etc/apt/sources.list.d/librefcount-src.sources
	if [ -r /etc/apt/sources.list.d/debian.sources ]; then
		echo "fetch-fio-src: adding deb-src lines in $src" >&2
		sed -n 's/^Types:.*deb\b.*/Types: deb-src/p;/^Types:/!p' \
			/etc/apt/sources.list.d/debian.sources |
			$SUDO tee "$src" >/dev/null
	elif [ -r /etc/apt/sources.list ]; then
		src=/etc/apt/sources.list.d/librefcount-src.list
		echo "fetch-fio-src: adding deb-src lines in $src" >&2
		sed -n 's/^deb /deb-src /p' /etc/apt/sources.list |
			$SUDO tee "$src" >/dev/null
	fi
	# a half-synced mirror for some other index must not stop us here:
	# apt-get source below fails clearly if fio's source is not there
	$SUDO apt-get -o DPkg::Lock::Timeout=900 update -qq >&2 ||
		echo "fetch-fio-src: apt-get update had errors" >&2
fi

tmp="$dir.tmp"
rm -rf "$tmp" "$dir"
mkdir -p "$tmp"
(cd "$tmp" && apt-get source -qq --download-only "fio=$ver" 2>&1 |
	grep -v 'unsandboxed' >&2 || true)
dsc=$(ls "$tmp"/fio_*.dsc)
# apt-get checked these files against the signed Release file; the .dsc
# signature needs a Debian keyring that a fresh machine lacks.
dpkg-source -q --no-check -x "$dsc" "$tmp/src" >&2
# Debian configures with --disable-native (debian/rules); so do we.
(cd "$tmp/src" && ./configure --disable-native >/dev/null)
mv "$tmp/src" "$dir"
rm -rf "$tmp"
echo "fetch-fio-src: fio $ver source configured in $dir" >&2
