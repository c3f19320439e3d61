/*
 * wp_commit_timing_v1 (commit_timing.h). wlroots 0.18 has no helper for it.
 *
 * A commit whose target is later than now is locked as a cached state of
 * its surface (wlr_surface_lock_pending), as a synchronized subsurface's
 * is, and unlocked when an output that shows the surface begins a paint
 * that cannot be shown before the target: on an output that reports
 * vblanks, the paint for the first vblank at or after it; elsewhere
 * (headless, nested without vblanks, where a frame shows when it is
 * committed) the first paint from the target on. wlroots applies cached
 * states in commit order, so a later commit with an earlier target waits
 * for the one before it, as the protocol asks.
 *
 * Nothing else changes for a held commit: the surface's commit event, on
 * which the ratings count damage and the frame schedule times draws, comes
 * only when it is applied, so a held frame counts as output only once it
 * is applied and shown.
 *
 * An idle output paints nothing, so a timer wakes the outputs that show
 * the surface when such a paint may begin; a surface that no output shows
 * is applied at its target from the same timer, and one whose outputs do
 * not paint for a few periods once due.
 */
#include "compositor/output/commit_timing.h"
#include "commit-timing-v1-protocol.h"
#include "compositor/listener.h"
#include "compositor/output/output.h"
#include "compositor/output/presentation.h"
#include "compositor/server.h"
#include "scheduler/sched_clock.h"
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/timerfd.h>
#include <unistd.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_output.h>
#include <wlr/util/addon.h>
#include <wlr/util/log.h>

#define COMMIT_TIMING_VERSION 1
/* Frames asked of the surface's outputs before a due commit is applied
 * without one. */
#define WAKE_TRIES 4
/* Between those asks where the output reports no refresh. */
#define WAKE_RETRY_NS (20 * INT64_C(1000000))

struct fw_commit_timing {
	struct fw_server *server;
	struct wl_global *global;
	struct wl_list held; /* held_commit.link */
	int timer_fd;
	struct wl_event_source *timer;
	int64_t armed_ns; /* 0: disarmed */
};

/* A wp_commit_timer_v1. */
struct fw_commit_timer {
	struct wl_resource *resource;
	struct fw_commit_timing *timing;
	struct wlr_surface *surface; /* NULL once destroyed */
	bool has_target; /* for the next commit */
	int64_t target_ns;
	struct wlr_addon addon; /* on the surface: one timer each */
	struct wl_listener client_commit;
};

/*
 * A commit held until its target. It outlives the timer that made it, so
 * it hears its surface's destroy itself, and it is let go as it falls due,
 * not in commit order: wlroots applies cached states in order. A fifo's
 * held commits (fifo.c) go with their fifo and leave strictly in order, so
 * the two keep records of their own.
 */
struct held_commit {
	struct fw_commit_timing *timing;
	struct wlr_surface *surface;
	uint32_t seq;
	int64_t target_ns;
	int64_t wake_ns; /* when the timer looks at it next */
	int tries;
	struct wl_listener surface_destroy;
	struct wl_list link; /* fw_commit_timing.held */
};

static void held_free(struct held_commit *held) {
	fw_listener_disconnect(&held->surface_destroy);
	wl_list_remove(&held->link);
	free(held);
}

static void handle_held_surface_destroy(
		struct wl_listener *listener, void *data) {
	/* Its cached state goes with the surface. */
	struct held_commit *held = wl_container_of(listener, held, surface_destroy);
	held_free(held);
}

/* Applies the commits on list, in order. */
static void release_all(struct wl_list *list) {
	while (!wl_list_empty(list)) {
		struct held_commit *held = wl_container_of(list->next, held, link);
		struct wlr_surface *surface = held->surface;
		uint32_t seq = held->seq;
		held_free(held);
		wlr_surface_unlock_cached(surface, seq);
	}
}

static bool surface_on(struct wlr_surface *surface, struct wlr_output *output) {
	struct wlr_surface_output *surface_output;
	wl_list_for_each(surface_output, &surface->current_outputs, link) {
		if (surface_output->output == output) {
			return true;
		}
	}
	return false;
}

/* When the surface's outputs could begin a paint that shows the commit at
 * its target; the target itself where no output of fairway's shows it. */
static int64_t wake_time(struct held_commit *held) {
	int64_t wake = held->target_ns;
	struct wlr_surface_output *surface_output;
	wl_list_for_each(surface_output, &held->surface->current_outputs, link) {
		struct fw_output *output = surface_output->output->data;
		if (output != NULL) {
			int64_t at = fw_presentation_wake_ns(output, held->target_ns);
			wake = at < wake ? at : wake;
		}
	}
	return wake;
}

static void arm(struct fw_commit_timing *timing) {
	int64_t at = 0;
	struct held_commit *held;
	wl_list_for_each(held, &timing->held, link) {
		if (at == 0 || held->wake_ns < at) {
			at = held->wake_ns;
		}
	}
	if (at == timing->armed_ns) {
		return;
	}
	/* Absolute and to the nanosecond; a time past fires at once, 0 disarms. */
	struct itimerspec spec = {0};
	spec.it_value.tv_sec = at / 1000000000;
	spec.it_value.tv_nsec = at % 1000000000;
	if (timerfd_settime(timing->timer_fd, TFD_TIMER_ABSTIME, &spec, NULL) !=
			0) {
		wlr_log_errno(WLR_ERROR, "Cannot set the commit timing timer");
		return;
	}
	timing->armed_ns = at;
}

/* Asks each output that shows the surface for a frame; false: none does. */
static bool wake_outputs(struct held_commit *held, int64_t *retry_ns) {
	bool any = false;
	*retry_ns = WAKE_RETRY_NS;
	struct wlr_surface_output *surface_output;
	wl_list_for_each(surface_output, &held->surface->current_outputs, link) {
		struct fw_output *output = surface_output->output->data;
		if (output == NULL) {
			continue;
		}
		any = true;
		wlr_output_schedule_frame(output->wlr_output);
		int64_t refresh = fw_presentation_refresh_ns(output);
		if (refresh > 0 && refresh < *retry_ns) {
			*retry_ns = refresh;
		}
	}
	return any;
}

static int handle_timer(int fd, uint32_t mask, void *data) {
	struct fw_commit_timing *timing = data;
	uint64_t expirations;
	if (read(fd, &expirations, sizeof(expirations)) < 0 && errno != EAGAIN) {
		wlr_log_errno(WLR_ERROR, "Cannot read the commit timing timer");
	}
	timing->armed_ns = 0;
	int64_t now = sched_clock_now_ns();
	struct wl_list due;
	wl_list_init(&due);
	struct held_commit *held, *tmp;
	wl_list_for_each_safe(held, tmp, &timing->held, link) {
		if (held->wake_ns > now) {
			continue;
		}
		int64_t retry;
		if (held->tries < WAKE_TRIES && wake_outputs(held, &retry)) {
			/* The paint it asked for applies it; if none comes, ask
			 * again. */
			held->tries++;
			held->wake_ns = now + retry;
		} else if (now >= held->target_ns) {
			wl_list_remove(&held->link);
			wl_list_insert(due.prev, &held->link);
		} else {
			held->wake_ns = held->target_ns;
		}
	}
	release_all(&due);
	arm(timing);
	return 0;
}

void fw_commit_timing_output_paint(
		struct fw_commit_timing *timing, struct fw_output *output) {
	if (timing == NULL || wl_list_empty(&timing->held)) {
		return;
	}
	int64_t shown = fw_presentation_next_ns(output, sched_clock_now_ns());
	struct wl_list due;
	wl_list_init(&due);
	struct held_commit *held, *tmp;
	wl_list_for_each_safe(held, tmp, &timing->held, link) {
		if (held->target_ns <= shown &&
				surface_on(held->surface, output->wlr_output)) {
			wl_list_remove(&held->link);
			wl_list_insert(due.prev, &held->link);
		}
	}
	release_all(&due);
	arm(timing);
}

static void handle_client_commit(struct wl_listener *listener, void *data) {
	struct fw_commit_timer *timer =
			wl_container_of(listener, timer, client_commit);
	if (!timer->has_target) {
		return;
	}
	timer->has_target = false;
	if (timer->target_ns <= sched_clock_now_ns()) {
		/* No paint from now on is shown before it. */
		return;
	}
	struct held_commit *held = calloc(1, sizeof(*held));
	if (held == NULL) {
		wl_resource_post_no_memory(timer->resource);
		return;
	}
	struct fw_commit_timing *timing = timer->timing;
	held->timing = timing;
	held->surface = timer->surface;
	held->target_ns = timer->target_ns;
	held->seq = wlr_surface_lock_pending(timer->surface);
	held->wake_ns = wake_time(held);
	fw_listener_connect(&held->surface_destroy, &timer->surface->events.destroy,
			handle_held_surface_destroy);
	wl_list_insert(timing->held.prev, &held->link);
	arm(timing);
}

static struct fw_commit_timer *timer_from_resource(
		struct wl_resource *resource) {
	return wl_resource_get_user_data(resource);
}

static void timer_handle_set_timestamp(struct wl_client *client,
		struct wl_resource *resource, uint32_t tv_sec_hi, uint32_t tv_sec_lo,
		uint32_t tv_nsec) {
	struct fw_commit_timer *timer = timer_from_resource(resource);
	if (timer->surface == NULL) {
		wl_resource_post_error(resource,
				WP_COMMIT_TIMER_V1_ERROR_SURFACE_DESTROYED,
				"the surface of this commit timer was destroyed");
		return;
	}
	uint64_t sec = (uint64_t)tv_sec_hi << 32 | tv_sec_lo;
	if (tv_nsec >= 1000000000 || sec >= INT64_MAX / 1000000000) {
		wl_resource_post_error(resource,
				WP_COMMIT_TIMER_V1_ERROR_INVALID_TIMESTAMP,
				"invalid timestamp %llu.%09u", (unsigned long long)sec,
				tv_nsec);
		return;
	}
	if (timer->has_target) {
		wl_resource_post_error(resource,
				WP_COMMIT_TIMER_V1_ERROR_TIMESTAMP_EXISTS,
				"the next commit already has a timestamp");
		return;
	}
	timer->has_target = true;
	timer->target_ns = (int64_t)sec * 1000000000 + tv_nsec;
}

static void timer_handle_destroy(
		struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static const struct wp_commit_timer_v1_interface timer_impl = {
		.set_timestamp = timer_handle_set_timestamp,
		.destroy = timer_handle_destroy,
};

/* The timer lets go of its surface; commits it held stay held. */
static void timer_detach(struct fw_commit_timer *timer) {
	if (timer->surface == NULL) {
		return;
	}
	fw_listener_disconnect(&timer->client_commit);
	wlr_addon_finish(&timer->addon);
	timer->surface = NULL;
}

static void handle_timer_resource_destroy(struct wl_resource *resource) {
	struct fw_commit_timer *timer = timer_from_resource(resource);
	timer_detach(timer);
	free(timer);
}

static void timer_addon_destroy(struct wlr_addon *addon) {
	struct fw_commit_timer *timer = wl_container_of(addon, timer, addon);
	timer_detach(timer);
}

static const struct wlr_addon_interface timer_addon_impl = {
		.name = "fw_commit_timer",
		.destroy = timer_addon_destroy,
};

static void manager_handle_get_timer(struct wl_client *client,
		struct wl_resource *resource, uint32_t id,
		struct wl_resource *surface_resource) {
	struct fw_commit_timing *timing = wl_resource_get_user_data(resource);
	struct wlr_surface *surface = wlr_surface_from_resource(surface_resource);
	if (wlr_addon_find(&surface->addons, timing, &timer_addon_impl) != NULL) {
		wl_resource_post_error(resource,
				WP_COMMIT_TIMING_MANAGER_V1_ERROR_COMMIT_TIMER_EXISTS,
				"the surface has a commit timer already");
		return;
	}
	struct fw_commit_timer *timer = calloc(1, sizeof(*timer));
	if (timer == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	timer->resource = wl_resource_create(client, &wp_commit_timer_v1_interface,
			wl_resource_get_version(resource), id);
	if (timer->resource == NULL) {
		free(timer);
		wl_client_post_no_memory(client);
		return;
	}
	timer->timing = timing;
	timer->surface = surface;
	wl_resource_set_implementation(
			timer->resource, &timer_impl, timer, handle_timer_resource_destroy);
	wlr_addon_init(&timer->addon, &surface->addons, timing, &timer_addon_impl);
	fw_listener_connect(&timer->client_commit, &surface->events.client_commit,
			handle_client_commit);
}

static void manager_handle_destroy(
		struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

static const struct wp_commit_timing_manager_v1_interface manager_impl = {
		.destroy = manager_handle_destroy,
		.get_timer = manager_handle_get_timer,
};

static void manager_bind(
		struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	struct wl_resource *resource = wl_resource_create(
			client, &wp_commit_timing_manager_v1_interface, version, id);
	if (resource == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, &manager_impl, data, NULL);
}

struct fw_commit_timing *fw_commit_timing_create(struct fw_server *server) {
	struct fw_commit_timing *timing = calloc(1, sizeof(*timing));
	if (timing == NULL) {
		return NULL;
	}
	timing->server = server;
	wl_list_init(&timing->held);
	timing->timer_fd =
			timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (timing->timer_fd < 0) {
		goto error_alloc;
	}
	timing->timer = wl_event_loop_add_fd(server->loop, timing->timer_fd,
			WL_EVENT_READABLE, handle_timer, timing);
	if (timing->timer == NULL) {
		goto error_fd;
	}
	timing->global = wl_global_create(server->display,
			&wp_commit_timing_manager_v1_interface, COMMIT_TIMING_VERSION,
			timing, manager_bind);
	if (timing->global == NULL) {
		goto error_timer;
	}
	return timing;

error_timer:
	wl_event_source_remove(timing->timer);
error_fd:
	close(timing->timer_fd);
error_alloc:
	free(timing);
	return NULL;
}

void fw_commit_timing_destroy(struct fw_commit_timing *timing) {
	if (timing == NULL) {
		return;
	}
	/* Every client went with its surfaces, and their held commits. */
	struct held_commit *held, *tmp;
	wl_list_for_each_safe(held, tmp, &timing->held, link) {
		held_free(held);
	}
	wl_global_destroy(timing->global);
	wl_event_source_remove(timing->timer);
	close(timing->timer_fd);
	free(timing);
}
