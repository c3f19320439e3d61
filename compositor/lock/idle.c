/*
 * Idle policy, over wlroots' ext-idle-notify-v1 notifier. Activity is what
 * keyboard.c and cursor.c report through fw_idle_activity on every input
 * event, virtual devices' included. An idle inhibitor counts while its
 * surface shows: it is in an enabled part of the scene with a buffer. That
 * is re-checked after each output frame, as a surface that appears or goes
 * away damages the output; while the session is locked only the lock
 * layer is enabled, so only inhibitors on lock surfaces count then.
 */
#include "compositor/lock/idle.h"
#include "compositor/listener.h"
#include "compositor/server.h"
#include <stdlib.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_idle_inhibit_v1.h>
#include <wlr/types/wlr_idle_notify_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/log.h>

struct inhibitor {
	struct wl_list link; /* fw_idle.inhibitors */
	struct fw_idle *idle;
	struct wlr_idle_inhibitor_v1 *wlr_inhibitor;
	bool shows;
	struct wl_listener destroy;
};

struct fw_idle {
	struct fw_server *server;
	struct wlr_idle_notifier_v1 *notifier;
	struct wlr_idle_inhibit_manager_v1 *inhibit_manager;
	struct wl_list inhibitors; /* inhibitor.link */
	bool inhibited;

	struct wl_listener new_inhibitor;
};

static void mark_shown(
		struct wlr_scene_buffer *scene_buffer, int sx, int sy, void *data) {
	struct fw_idle *idle = data;
	struct wlr_scene_surface *scene_surface =
			wlr_scene_surface_try_from_buffer(scene_buffer);
	if (scene_surface == NULL ||
			!wlr_surface_has_buffer(scene_surface->surface)) {
		return;
	}
	struct inhibitor *inhibitor;
	wl_list_for_each(inhibitor, &idle->inhibitors, link) {
		if (inhibitor->wlr_inhibitor->surface == scene_surface->surface) {
			inhibitor->shows = true;
		}
	}
}

static void update(struct fw_idle *idle) {
	bool inhibited = false;
	if (!wl_list_empty(&idle->inhibitors)) {
		struct inhibitor *inhibitor;
		wl_list_for_each(inhibitor, &idle->inhibitors, link) {
			inhibitor->shows = false;
		}
		/* It skips disabled nodes and what is below them. */
		wlr_scene_node_for_each_buffer(
				&idle->server->scene->tree.node, mark_shown, idle);
		wl_list_for_each(inhibitor, &idle->inhibitors, link) {
			inhibited = inhibited || inhibitor->shows;
		}
	}
	if (inhibited == idle->inhibited) {
		return;
	}
	idle->inhibited = inhibited;
	wlr_log(WLR_DEBUG, "Idle timers %s", inhibited ? "inhibited" : "running");
	wlr_idle_notifier_v1_set_inhibited(idle->notifier, inhibited);
}

void fw_idle_update(struct fw_server *server) {
	if (server->idle_policy != NULL) {
		update(server->idle_policy);
	}
}

void fw_idle_activity(struct fw_server *server) {
	struct fw_idle *idle = server->idle_policy;
	if (idle != NULL) {
		wlr_idle_notifier_v1_notify_activity(idle->notifier, server->seat);
	}
}

static void inhibitor_destroy(struct inhibitor *inhibitor) {
	fw_listener_disconnect(&inhibitor->destroy);
	wl_list_remove(&inhibitor->link);
	free(inhibitor);
}

static void handle_inhibitor_destroy(struct wl_listener *listener, void *data) {
	struct inhibitor *inhibitor = wl_container_of(listener, inhibitor, destroy);
	struct fw_idle *idle = inhibitor->idle;
	inhibitor_destroy(inhibitor);
	update(idle);
}

static void handle_new_inhibitor(struct wl_listener *listener, void *data) {
	struct fw_idle *idle = wl_container_of(listener, idle, new_inhibitor);
	struct wlr_idle_inhibitor_v1 *wlr_inhibitor = data;
	struct inhibitor *inhibitor = calloc(1, sizeof(*inhibitor));
	if (inhibitor == NULL) {
		wlr_log(WLR_ERROR, "Cannot track an idle inhibitor");
		return;
	}
	inhibitor->idle = idle;
	inhibitor->wlr_inhibitor = wlr_inhibitor;
	fw_listener_connect(&inhibitor->destroy, &wlr_inhibitor->events.destroy,
			handle_inhibitor_destroy);
	wl_list_insert(&idle->inhibitors, &inhibitor->link);
	update(idle);
}

bool fw_idle_create(struct fw_server *server) {
	struct fw_idle *idle = calloc(1, sizeof(*idle));
	if (idle == NULL) {
		return false;
	}
	idle->server = server;
	wl_list_init(&idle->inhibitors);
	/* Both go with the display. */
	idle->notifier = wlr_idle_notifier_v1_create(server->display);
	idle->inhibit_manager = wlr_idle_inhibit_v1_create(server->display);
	if (idle->notifier == NULL || idle->inhibit_manager == NULL) {
		free(idle);
		return false;
	}
	fw_listener_connect(&idle->new_inhibitor,
			&idle->inhibit_manager->events.new_inhibitor, handle_new_inhibitor);
	server->idle_policy = idle;
	return true;
}

void fw_idle_destroy(struct fw_server *server) {
	struct fw_idle *idle = server->idle_policy;
	if (idle == NULL) {
		return;
	}
	struct inhibitor *inhibitor, *tmp;
	wl_list_for_each_safe(inhibitor, tmp, &idle->inhibitors, link) {
		inhibitor_destroy(inhibitor);
	}
	fw_listener_disconnect(&idle->new_inhibitor);
	server->idle_policy = NULL;
	free(idle);
}
