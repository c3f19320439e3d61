#ifndef FAIRWAY_COMPOSITOR_XWAYLAND_PID_H
#define FAIRWAY_COMPOSITOR_XWAYLAND_PID_H

#include <sys/types.h>

/*
 * The Xwayland process serving display (":N"), or 0. wlroots 0.15 starts
 * Xwayland through an intermediate fork, so the pid it keeps is not
 * Xwayland's, and Xwayland's socketpair names fairway: /proc is searched.
 */
pid_t fw_xwayland_find_pid(const char *display);

#endif
