# Sourced by the test scripts that start fairway themselves: a private
# $tmp (removed on exit) holding XDG_RUNTIME_DIR, and a headless, pixman,
# device-less wlroots that no outer session can leak into.
tmp=$(mktemp -d "${TMPDIR:-/tmp}/fw-test.XXXXXX") || exit 99
trap 'rm -rf "$tmp"' EXIT
chmod 700 "$tmp"
export XDG_RUNTIME_DIR="$tmp"
export WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1
unset WAYLAND_DISPLAY WAYLAND_SOCKET DISPLAY
# No configuration file but an empty one of its own (fairway(5)).
export XDG_CONFIG_HOME="$tmp/config"
mkdir -p "$XDG_CONFIG_HOME/fairway"
: >"$XDG_CONFIG_HOME/fairway/config"
