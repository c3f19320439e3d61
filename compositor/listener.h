#ifndef FAIRWAY_COMPOSITOR_LISTENER_H
#define FAIRWAY_COMPOSITOR_LISTENER_H

#include <stddef.h>
#include <wayland-server-core.h>

/*
 * fairway's one way to hook a listener to a signal and off again. A
 * listener lives zeroed in its calloc'ed owner until it is connected;
 * disconnecting it is harmless whether it was connected or not, and
 * twice, so a teardown that follows a create that stopped halfway needs
 * no guard of its own.
 */

static inline void fw_listener_connect(struct wl_listener *listener,
		struct wl_signal *signal, wl_notify_func_t notify) {
	listener->notify = notify;
	wl_signal_add(signal, listener);
}

static inline void fw_listener_disconnect(struct wl_listener *listener) {
	/* wl_list_remove leaves the link NULL: never connected, or no longer. */
	if (listener->link.next != NULL) {
		wl_list_remove(&listener->link);
	}
}

#endif
