#!/bin/sh
# fw-flatpak-run.sh [--as USER] COMMAND [ARGS...]: runs COMMAND the way
# Flatpak runs an application, as far as a compositor can tell: in a root
# directory of its own that holds /.flatpak-info. The root mirrors the
# machine's (each top-level directory bound in, read-write as it is), in a
# mount namespace of its own; nothing outside changes. Needs root; with
# --as, COMMAND then runs as USER (group nogroup). The environment passes
# through, WAYLAND_DISPLAY and XDG_RUNTIME_DIR included.
set -eu
user=""
if [ "${1:-}" = --as ]; then
	user=$2
	shift 2
fi
[ $# -gt 0 ] || {
	echo "usage: fw-flatpak-run.sh [--as USER] COMMAND [ARGS...]" >&2
	exit 2
}
[ "$(id -u)" = 0 ] || {
	echo "fw-flatpak-run.sh: needs root" >&2
	exit 77
}
if [ -z "${FW_FLATPAK_NS:-}" ]; then
	FW_FLATPAK_NS=1 exec unshare --mount --propagation private "$0" \
		${user:+--as "$user"} "$@"
fi
# The new root is a tmpfs over /mnt, in this namespace only: nothing of it
# is left behind. /mnt itself is the one directory it does not mirror.
root=/mnt
mount -t tmpfs -o mode=755 fw-flatpak "$root"
for entry in /*; do
	name=${entry#/}
	if [ "$entry" = "$root" ]; then
		continue
	elif [ -L "$entry" ]; then
		cp -P "$entry" "$root/$name"
	elif [ -d "$entry" ]; then
		mkdir "$root/$name"
		mount --rbind "$entry" "$root/$name"
	fi
done
printf '[Application]\nname=org.fairway.Sandboxed\n' >"$root/.flatpak-info"
chmod 644 "$root/.flatpak-info"
cd "$root"
if [ -n "$user" ]; then
	exec chroot --userspec="$user:nogroup" "$root" "$@"
fi
exec chroot "$root" "$@"
