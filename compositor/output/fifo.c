/*
 * wp_fifo_v1 (fifo.h). wlroots 0.18 has no helper for it.
 *
 * set_barrier and wait_barrier are double-buffered: they travel with the
 * commit as a wlr_surface_synced state, so a commit cached for another
 * reason (commit timing, a synchronized parent) sets its barrier when it is
 * applied, not when it was made. A commit that waits while the barrier is
 * set, or while a commit that sets one is still on its way, is locked as a
 * cached state of its surface (wlr_surface_lock_pending). The barrier
 * clears when an output that shows the surface has painted, or had nothing
 * to paint at its refresh (fw_fifo_manager_output_latched); the held
 * commits are then applied in order up to the next that sets a barrier,
 * and the output is asked for another frame while any stay held.
 *
 * The protocol lets a compositor ignore the constraint for a surface it
 * does not update: one that no output shows is never held, and one that
 * no output shows any more, or whose outputs stopped painting, is let go
 * by a timer. A synchronized subsurface's constraint is ignored, as the
 * protocol says.
 *
 * The ratings and the frame schedule listen to the surface's commit event,
 * which comes only when a held commit is applied: a held frame is not
 * output until then.
 */
#include "compositor/output/fifo.h"
#include "compositor/listener.h"
#include "compositor/output/output.h"
#include "compositor/server.h"
#include "fifo-v1-protocol.h"
#include "scheduler/sched_clock.h"
#include <stdint.h>
#include <stdlib.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_subcompositor.h>
#include <wlr/util/addon.h>

#define FIFO_VERSION 1
/* How often the timer looks for held commits no paint will let go. */
#define STALL_CHECK_MS 50
/* A commit held this long is let go: its outputs stopped painting. */
#define STALL_NS (200 * INT64_C(1000000))

struct fw_fifo_manager {
	struct fw_server *server;
	struct wl_global *global;
	struct wl_list fifos; /* fw_fifo.link */
	struct wl_event_source *stall_timer;
	bool stall_armed;
};

struct fifo_state {
	bool set_barrier, wait_barrier;
};

/* A wp_fifo_v1. */
struct fw_fifo {
	struct wl_resource *resource;
	struct fw_fifo_manager *manager;
	struct wlr_surface *surface; /* NULL once destroyed */
	struct wlr_surface_synced synced;
	struct fifo_state pending, current;
	/* The surface's fifo_barrier condition. */
	bool barrier;
	/* Commits that set a barrier, made and not yet applied, not held here. */
	int unapplied;
	struct wl_list held; /* fifo_commit.link, in commit order */
	struct wlr_addon addon; /* on the surface: one fifo each */
	struct wl_listener client_commit;
	struct wl_listener commit;
	struct wl_list link; /* fw_fifo_manager.fifos */
};

/*
 * A commit held on the barrier. It goes with its fifo, whose addon hears
 * the surface go, and the held ones leave strictly in order, one that
 * sets a barrier counted in unapplied before wlroots applies it
 * (release_first). Commit timing's held commits (commit_timing.c) outlive
 * their timer and leave as they fall due, so the two keep records of
 * their own.
 */
struct fifo_commit {
	struct wl_list link; /* fw_fifo.held */
	uint32_t seq;
	bool set_barrier;
	int64_t held_ns;
};

static void synced_move_state(void *dst_state, void *src_state) {
	struct fifo_state *dst = dst_state, *src = src_state;
	*dst = *src;
	*src = (struct fifo_state){0};
}

static const struct wlr_surface_synced_impl synced_impl = {
		.state_size = sizeof(struct fifo_state),
		.move_state = synced_move_state,
};

static bool on_output(struct wlr_surface *surface, struct wlr_output *output) {
	struct wlr_surface_output *surface_output;
	wl_list_for_each(surface_output, &surface->current_outputs, link) {
		if (output == NULL || surface_output->output == output) {
			return true;
		}
	}
	return false;
}

/* Applies the first held commit. */
static void release_first(struct fw_fifo *fifo) {
	struct fifo_commit *commit = wl_container_of(fifo->held.next, commit, link);
	if (commit->set_barrier) {
		fifo->unapplied++;
	}
	uint32_t seq = commit->seq;
	wl_list_remove(&commit->link);
	free(commit);
	/* Applied now unless something else holds it too; its barrier, if
	 * any, is set by then (handle_commit). */
	wlr_surface_unlock_cached(fifo->surface, seq);
}

/* A latching deadline passed for the surface. */
static void latch(struct fw_fifo *fifo) {
	fifo->barrier = false;
	while (!wl_list_empty(&fifo->held) && !fifo->barrier &&
			fifo->unapplied == 0) {
		release_first(fifo);
	}
}

static void release_all(struct fw_fifo *fifo) {
	fifo->barrier = false;
	while (!wl_list_empty(&fifo->held)) {
		release_first(fifo);
	}
}

static void arm_stall_timer(struct fw_fifo_manager *manager) {
	if (!manager->stall_armed) {
		wl_event_source_timer_update(manager->stall_timer, STALL_CHECK_MS);
		manager->stall_armed = true;
	}
}

static int handle_stall_timer(void *data) {
	struct fw_fifo_manager *manager = data;
	manager->stall_armed = false;
	int64_t now = sched_clock_now_ns();
	bool held = false;
	struct fw_fifo *fifo, *tmp;
	wl_list_for_each_safe(fifo, tmp, &manager->fifos, link) {
		if (wl_list_empty(&fifo->held)) {
			continue;
		}
		struct fifo_commit *first =
				wl_container_of(fifo->held.next, first, link);
		if (!on_output(fifo->surface, NULL) ||
				now - first->held_ns >= STALL_NS) {
			release_all(fifo);
		}
		held = held || !wl_list_empty(&fifo->held);
	}
	if (held) {
		arm_stall_timer(manager);
	}
	return 0;
}

void fw_fifo_manager_output_latched(
		struct fw_fifo_manager *manager, struct fw_output *output) {
	if (manager == NULL) {
		return;
	}
	struct fw_fifo *fifo, *tmp;
	wl_list_for_each_safe(fifo, tmp, &manager->fifos, link) {
		if (fifo->surface == NULL ||
				!on_output(fifo->surface, output->wlr_output)) {
			continue;
		}
		latch(fifo);
		if (!wl_list_empty(&fifo->held)) {
			/* The next refresh lets the next one go, painted or not. */
			wlr_output_schedule_frame(output->wlr_output);
		}
	}
}

static bool synchronized(struct wlr_surface *surface) {
	struct wlr_subsurface *subsurface =
			wlr_subsurface_try_from_wlr_surface(surface);
	return subsurface != NULL && subsurface->synchronized;
}

static void handle_client_commit(struct wl_listener *listener, void *data) {
	struct fw_fifo *fifo = wl_container_of(listener, fifo, client_commit);
	struct wlr_surface *surface = fifo->surface;
	bool wait = fifo->pending.wait_barrier &&
			(fifo->barrier || fifo->unapplied > 0 ||
					!wl_list_empty(&fifo->held)) &&
			!synchronized(surface) && on_output(surface, NULL);
	if (!wait) {
		if (fifo->pending.set_barrier) {
			fifo->unapplied++;
		}
		return;
	}
	struct fifo_commit *commit = calloc(1, sizeof(*commit));
	if (commit == NULL) {
		wl_resource_post_no_memory(fifo->resource);
		return;
	}
	commit->set_barrier = fifo->pending.set_barrier;
	commit->held_ns = sched_clock_now_ns();
	commit->seq = wlr_surface_lock_pending(surface);
	wl_list_insert(fifo->held.prev, &commit->link);
	/* A refresh must come to let it go, though nothing else changes. */
	struct wlr_surface_output *surface_output;
	wl_list_for_each(surface_output, &surface->current_outputs, link) {
		wlr_output_schedule_frame(surface_output->output);
	}
	arm_stall_timer(fifo->manager);
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct fw_fifo *fifo = wl_container_of(listener, fifo, commit);
	if (fifo->current.set_barrier) {
		fifo->barrier = true;
		if (fifo->unapplied > 0) {
			fifo->unapplied--;
		}
	}
}

/* The fifo lets go of its surface. release: apply what it held. */
static void fifo_detach(struct fw_fifo *fifo, bool release) {
	if (fifo->surface == NULL) {
		return;
	}
	if (release) {
		release_all(fifo);
	}
	struct fifo_commit *commit, *tmp;
	wl_list_for_each_safe(commit, tmp, &fifo->held, link) {
		/* The surface goes, and its cached states with it. */
		wl_list_remove(&commit->link);
		free(commit);
	}
	fw_listener_disconnect(&fifo->client_commit);
	fw_listener_disconnect(&fifo->commit);
	wlr_surface_synced_finish(&fifo->synced);
	wlr_addon_finish(&fifo->addon);
	fifo->surface = NULL;
}

static struct fw_fifo *fifo_from_resource(struct wl_resource *resource) {
	return wl_resource_get_user_data(resource);
}

static bool check_surface(struct wl_resource *resource) {
	if (fifo_from_resource(resource)->surface == NULL) {
		wl_resource_post_error(resource, WP_FIFO_V1_ERROR_SURFACE_DESTROYED,
				"the surface of this fifo was destroyed");
		return false;
	}
	return true;
}

static void fifo_handle_set_barrier(
		struct wl_client *client, struct wl_resource *resource) {
	if (check_surface(resource)) {
		fifo_from_resource(resource)->pending.set_barrier = true;
	}
}

static void fifo_handle_wait_barrier(
		struct wl_client *client, struct wl_resource *resource) {
	if (check_surface(resource)) {
		fifo_from_resource(resource)->pending.wait_barrier = true;
	}
}

static void fifo_handle_destroy(
		struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static const struct wp_fifo_v1_interface fifo_impl = {
		.set_barrier = fifo_handle_set_barrier,
		.wait_barrier = fifo_handle_wait_barrier,
		.destroy = fifo_handle_destroy,
};

static void handle_fifo_resource_destroy(struct wl_resource *resource) {
	struct fw_fifo *fifo = fifo_from_resource(resource);
	/* What it held is not left waiting on a barrier no one clears. */
	fifo_detach(fifo, true);
	wl_list_remove(&fifo->link);
	free(fifo);
}

static void fifo_addon_destroy(struct wlr_addon *addon) {
	struct fw_fifo *fifo = wl_container_of(addon, fifo, addon);
	fifo_detach(fifo, false);
}

static const struct wlr_addon_interface fifo_addon_impl = {
		.name = "fw_fifo",
		.destroy = fifo_addon_destroy,
};

static void manager_handle_get_fifo(struct wl_client *client,
		struct wl_resource *resource, uint32_t id,
		struct wl_resource *surface_resource) {
	struct fw_fifo_manager *manager = wl_resource_get_user_data(resource);
	struct wlr_surface *surface = wlr_surface_from_resource(surface_resource);
	if (wlr_addon_find(&surface->addons, manager, &fifo_addon_impl) != NULL) {
		wl_resource_post_error(resource,
				WP_FIFO_MANAGER_V1_ERROR_ALREADY_EXISTS,
				"the surface has a fifo already");
		return;
	}
	struct fw_fifo *fifo = calloc(1, sizeof(*fifo));
	if (fifo == NULL) {
		goto error;
	}
	if (!wlr_surface_synced_init(&fifo->synced, surface, &synced_impl,
				&fifo->pending, &fifo->current)) {
		goto error_alloc;
	}
	fifo->resource = wl_resource_create(client, &wp_fifo_v1_interface,
			wl_resource_get_version(resource), id);
	if (fifo->resource == NULL) {
		goto error_synced;
	}
	fifo->manager = manager;
	fifo->surface = surface;
	wl_list_init(&fifo->held);
	wl_list_insert(&manager->fifos, &fifo->link);
	wl_resource_set_implementation(
			fifo->resource, &fifo_impl, fifo, handle_fifo_resource_destroy);
	wlr_addon_init(&fifo->addon, &surface->addons, manager, &fifo_addon_impl);
	fw_listener_connect(&fifo->client_commit, &surface->events.client_commit,
			handle_client_commit);
	fw_listener_connect(&fifo->commit, &surface->events.commit, handle_commit);
	return;

error_synced:
	wlr_surface_synced_finish(&fifo->synced);
error_alloc:
	free(fifo);
error:
	wl_client_post_no_memory(client);
}

static void manager_handle_destroy(
		struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static const struct wp_fifo_manager_v1_interface manager_impl = {
		.destroy = manager_handle_destroy,
		.get_fifo = manager_handle_get_fifo,
};

static void manager_bind(
		struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *resource = wl_resource_create(
			client, &wp_fifo_manager_v1_interface, version, id);
	if (resource == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

struct fw_fifo_manager *fw_fifo_manager_create(struct fw_server *server) {
	struct fw_fifo_manager *manager = calloc(1, sizeof(*manager));
	if (manager == NULL) {
		return NULL;
	}
	manager->server = server;
	wl_list_init(&manager->fifos);
	manager->stall_timer =
			wl_event_loop_add_timer(server->loop, handle_stall_timer, manager);
	if (manager->stall_timer == NULL) {
		goto error_alloc;
	}
	manager->global = wl_global_create(server->display,
			&wp_fifo_manager_v1_interface, FIFO_VERSION, manager, manager_bind);
	if (manager->global == NULL) {
		goto error_timer;
	}
	return manager;

error_timer:
	wl_event_source_remove(manager->stall_timer);
error_alloc:
	free(manager);
	return NULL;
}

void fw_fifo_manager_destroy(struct fw_fifo_manager *manager) {
	if (manager == NULL) {
		return;
	}
	/* Every client, and its fifos, went first. */
	wl_global_destroy(manager->global);
	wl_event_source_remove(manager->stall_timer);
	free(manager);
}
