/*
 * Frame dones sent at the end of the event loop's turn (frame_dones.h).
 * libwayland runs idle callbacks in the order they were added, and those
 * added while it runs them in the same pass: an idle callback that adds
 * another runs that one after every configure the turn's requests queued.
 */
#include "compositor/output/frame_dones.h"
#include <stdlib.h>
#include <wayland-server-protocol.h>
#include <wlr/types/wlr_compositor.h>

struct fw_frame_dones {
	struct wl_event_loop *loop;
	struct wl_list due; /* fw_frame_dones_surface.link */
	struct wl_event_source *idle; /* either hop's; NULL: none */
};

static void send_due(struct fw_frame_dones *dones) {
	struct fw_frame_dones_surface *pending, *pending_tmp;
	wl_list_for_each_safe(pending, pending_tmp, &dones->due, link) {
		struct wl_resource *resource, *resource_tmp;
		wl_resource_for_each_safe(resource, resource_tmp, &pending->callbacks) {
			wl_callback_send_done(resource, pending->msec);
			wl_resource_destroy(resource);
		}
		wl_list_remove(&pending->link);
		wl_list_init(&pending->link);
		/* Out now: the gate, busy, would hold it until its next flush of
		 * everyone (a quarter of a millisecond), time the client draws in. */
		wl_client_flush(pending->client);
	}
}

static void handle_last_idle(void *data) {
	struct fw_frame_dones *dones = data;
	dones->idle = NULL;
	send_due(dones);
}

static void handle_first_idle(void *data) {
	struct fw_frame_dones *dones = data;
	dones->idle = wl_event_loop_add_idle(dones->loop, handle_last_idle, dones);
	if (dones->idle == NULL) {
		send_due(dones);
	}
}

void fw_frame_dones_take(struct fw_frame_dones *dones,
		struct fw_frame_dones_surface *pending, struct wlr_surface *surface,
		int64_t now_ns) {
	wl_list_insert_list(
			pending->callbacks.prev, &surface->current.frame_callback_list);
	wl_list_init(&surface->current.frame_callback_list);
	pending->msec = (uint32_t)(now_ns / 1000000);
	pending->client = wl_resource_get_client(surface->resource);
	if (wl_list_empty(&pending->link)) {
		wl_list_insert(dones->due.prev, &pending->link);
	}
	if (dones->idle == NULL) {
		dones->idle =
				wl_event_loop_add_idle(dones->loop, handle_first_idle, dones);
		if (dones->idle == NULL) {
			send_due(dones);
		}
	}
}

void fw_frame_dones_surface_init(struct fw_frame_dones_surface *pending) {
	*pending = (struct fw_frame_dones_surface){0};
	wl_list_init(&pending->callbacks);
	wl_list_init(&pending->link);
}

void fw_frame_dones_surface_finish(struct fw_frame_dones_surface *pending) {
	struct wl_resource *resource, *resource_tmp;
	wl_resource_for_each_safe(resource, resource_tmp, &pending->callbacks) {
		wl_resource_destroy(resource);
	}
	wl_list_remove(&pending->link);
	wl_list_init(&pending->link);
}

struct fw_frame_dones *fw_frame_dones_create(struct wl_event_loop *loop) {
	struct fw_frame_dones *dones = calloc(1, sizeof(*dones));
	if (dones == NULL) {
		return NULL;
	}
	dones->loop = loop;
	wl_list_init(&dones->due);
	return dones;
}

void fw_frame_dones_destroy(struct fw_frame_dones *dones) {
	if (dones == NULL) {
		return;
	}
	if (dones->idle != NULL) {
		wl_event_source_remove(dones->idle);
	}
	free(dones);
}
