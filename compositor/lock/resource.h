#ifndef FAIRWAY_COMPOSITOR_LOCK_RESOURCE_H
#define FAIRWAY_COMPOSITOR_LOCK_RESOURCE_H

#include <stdint.h>
#include <wayland-server-core.h>

/*
 * What fairway's own protocol implementations (idle_notify.c,
 * session_lock.c) share.
 */

/* A destroy request: the resource's destroy handler does the rest. */
void fw_resource_handle_destroy(
		struct wl_client *client, struct wl_resource *resource);

/*
 * A global's bind: a resource of interface with impl and data, and no
 * destroy handler. Out of memory, the client is told so.
 */
void fw_resource_bind(struct wl_client *client,
		const struct wl_interface *interface, uint32_t version, uint32_t id,
		const void *impl, void *data);

#endif
