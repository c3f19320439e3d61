#include "compositor/sched/ratings_damage.h"
#include "compositor/listener.h"
#include "compositor/sched/sched.h"
#include "compositor/server.h"
#include "scheduler/trace/trace.h"
#include <pixman.h>
#include <stdlib.h>
#include <wlr/backend.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/util/box.h>

/* Damage committed to a surface and not yet shown by a frame. */
struct fw_damage {
	struct fw_damage_tracker *tracker;
	struct wlr_surface *surface;
	pixman_region32_t pending; /* surface coordinates */
	uint64_t walk; /* the latest frame that found it in the scene */
	bool presented; /* a frame has shown some of it (--trace) */
	struct wl_listener commit;
	struct wl_listener destroy;
	struct wl_list link; /* fw_damage_tracker.damage */
};

struct fw_damage_output {
	struct fw_damage_tracker *tracker;
	struct wlr_output *output;
	struct wl_listener present;
	struct wl_listener destroy;
	struct wl_list link; /* fw_damage_tracker.outputs */
};

struct fw_damage_tracker {
	struct fw_server *server;
	struct fw_damage_callbacks callbacks;
	void *data;
	struct wl_list damage, outputs;
	uint64_t walk; /* frames counted */
	struct wl_listener new_surface;
	struct wl_listener new_output;
};

static void handle_damage_commit(struct wl_listener *listener, void *data) {
	struct fw_damage *damage = wl_container_of(listener, damage, commit);
	struct wlr_surface *surface = damage->surface;
	pixman_region32_t region;
	pixman_region32_init(&region);
	wlr_surface_get_effective_damage(surface, &region);
	if (pixman_region32_not_empty(&region)) {
		damage->tracker->callbacks.committed(surface, damage->tracker->data);
	}
	pixman_region32_union(&damage->pending, &damage->pending, &region);
	pixman_region32_intersect_rect(&damage->pending, &damage->pending, 0, 0,
			(unsigned)surface->current.width,
			(unsigned)surface->current.height);
	pixman_region32_fini(&region);
}

static void handle_damage_destroy(struct wl_listener *listener, void *data) {
	struct fw_damage *damage = wl_container_of(listener, damage, destroy);
	wl_list_remove(&damage->commit.link);
	wl_list_remove(&damage->destroy.link);
	wl_list_remove(&damage->link);
	pixman_region32_fini(&damage->pending);
	free(damage);
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct fw_damage_tracker *tracker =
			wl_container_of(listener, tracker, new_surface);
	struct wlr_surface *surface = data;
	struct fw_damage *damage = calloc(1, sizeof(*damage));
	if (damage == NULL) {
		return;
	}
	damage->tracker = tracker;
	damage->surface = surface;
	pixman_region32_init(&damage->pending);
	fw_listener_connect(
			&damage->commit, &surface->events.commit, handle_damage_commit);
	fw_listener_connect(
			&damage->destroy, &surface->events.destroy, handle_damage_destroy);
	wl_list_insert(&tracker->damage, &damage->link);
}

struct scene_surface {
	struct wlr_surface *surface;
	int lx, ly;
};

struct scene_walk {
	struct scene_surface *items;
	size_t count, capacity;
};

static void collect_surface(
		struct wlr_scene_buffer *buffer, int lx, int ly, void *data) {
	struct scene_walk *walk = data;
	struct wlr_scene_surface *scene_surface =
			wlr_scene_surface_try_from_buffer(buffer);
	if (scene_surface == NULL) {
		return;
	}
	if (walk->count == walk->capacity) {
		size_t capacity = walk->capacity ? walk->capacity * 2 : 32;
		struct scene_surface *items =
				realloc(walk->items, capacity * sizeof(*items));
		if (items == NULL) {
			return;
		}
		walk->items = items;
		walk->capacity = capacity;
	}
	walk->items[walk->count++] =
			(struct scene_surface){scene_surface->surface, lx, ly};
}

static double region_area(pixman_region32_t *region) {
	int n;
	pixman_box32_t *rects = pixman_region32_rectangles(region, &n);
	double area = 0;
	for (int i = 0; i < n; i++) {
		area += (double)(rects[i].x2 - rects[i].x1) *
				(double)(rects[i].y2 - rects[i].y1);
	}
	return area;
}

/*
 * Counts one presented frame of box's output: each surface's damage since
 * it was last shown, less what surfaces above cover and what is off this
 * output, as a share of the surface.
 */
static void count_frame(struct fw_damage_tracker *tracker,
		const struct wlr_box *box, pixman_region32_t *screens) {
	struct scene_walk walk = {0};
	wlr_scene_node_for_each_buffer(
			&tracker->server->scene->tree.node, collect_surface, &walk);
	tracker->walk++;
	pixman_region32_t covered, visible, shown;
	pixman_region32_init(&covered);
	pixman_region32_init(&visible);
	pixman_region32_init(&shown);
	/* The scene lists surfaces bottom to top: walk down from the top. */
	for (size_t i = walk.count; i-- > 0;) {
		struct scene_surface *item = &walk.items[i];
		int w = item->surface->current.width, h = item->surface->current.height;
		if (w <= 0 || h <= 0) {
			continue;
		}
		struct wl_listener *listener = wl_signal_get(
				&item->surface->events.destroy, handle_damage_destroy);
		struct fw_damage *damage = listener != NULL
				? wl_container_of(listener, damage, destroy)
				: NULL;
		if (damage != NULL) {
			damage->walk = tracker->walk;
		}
		if (damage != NULL && pixman_region32_not_empty(&damage->pending)) {
			pixman_box32_t surface_box = {
					item->lx, item->ly, item->lx + w, item->ly + h};
			pixman_region32_reset(&visible, &surface_box);
			pixman_region32_intersect_rect(&visible, &visible, box->x, box->y,
					(unsigned)box->width, (unsigned)box->height);
			pixman_region32_subtract(&visible, &visible, &covered);
			pixman_region32_copy(&shown, &damage->pending);
			pixman_region32_translate(&shown, item->lx, item->ly);
			pixman_region32_intersect(&shown, &shown, &visible);
			double area = region_area(&shown);
			if (area > 0) {
				tracker->callbacks.shown(item->surface,
						area / ((double)w * (double)h), tracker->data);
				if (!damage->presented) {
					damage->presented = true;
					gate_trace_presented(
							fw_sched_get_trace(tracker->server->sched),
							item->surface->resource);
				}
			}
			/* Counted once: keep only what other outputs may yet show. */
			pixman_region32_translate(&damage->pending, item->lx, item->ly);
			pixman_box32_t output_box = {
					box->x, box->y, box->x + box->width, box->y + box->height};
			pixman_region32_reset(&visible, &output_box);
			pixman_region32_subtract(
					&damage->pending, &damage->pending, &visible);
			pixman_region32_intersect(
					&damage->pending, &damage->pending, screens);
			pixman_region32_translate(&damage->pending, -item->lx, -item->ly);
		}
		pixman_region32_union_rect(&covered, &covered, item->lx, item->ly,
				(unsigned)w, (unsigned)h);
	}
	pixman_region32_fini(&covered);
	pixman_region32_fini(&visible);
	pixman_region32_fini(&shown);
	free(walk.items);
	/* Not in the scene (unmapped, hidden): nobody saw it. */
	struct fw_damage *damage;
	wl_list_for_each(damage, &tracker->damage, link) {
		if (damage->walk != tracker->walk) {
			pixman_region32_clear(&damage->pending);
		}
	}
	tracker->callbacks.frame_done(tracker->data);
}

static void handle_present(struct wl_listener *listener, void *data) {
	struct fw_damage_output *ro = wl_container_of(listener, ro, present);
	struct wlr_output_event_present *event = data;
	struct fw_server *server = ro->tracker->server;
	if (!event->presented) {
		return;
	}
	struct wlr_box frame_box;
	wlr_output_layout_get_box(server->output_layout, ro->output, &frame_box);
	if (wlr_box_empty(&frame_box)) {
		return;
	}
	pixman_region32_t screens;
	pixman_region32_init(&screens);
	struct wlr_output_layout_output *lo;
	wl_list_for_each(lo, &server->output_layout->outputs, link) {
		struct wlr_box b;
		wlr_output_layout_get_box(server->output_layout, lo->output, &b);
		if (!wlr_box_empty(&b)) {
			pixman_region32_union_rect(&screens, &screens, b.x, b.y,
					(unsigned)b.width, (unsigned)b.height);
		}
	}
	count_frame(ro->tracker, &frame_box, &screens);
	pixman_region32_fini(&screens);
}

static void handle_output_destroy(struct wl_listener *listener, void *data) {
	struct fw_damage_output *ro = wl_container_of(listener, ro, destroy);
	wl_list_remove(&ro->present.link);
	wl_list_remove(&ro->destroy.link);
	wl_list_remove(&ro->link);
	free(ro);
}

void fw_ratings_damage_add_output(
		struct fw_damage_tracker *tracker, struct wlr_output *output) {
	struct fw_damage_output *ro = calloc(1, sizeof(*ro));
	if (ro == NULL) {
		return;
	}
	ro->tracker = tracker;
	ro->output = output;
	fw_listener_connect(&ro->present, &output->events.present, handle_present);
	fw_listener_connect(
			&ro->destroy, &output->events.destroy, handle_output_destroy);
	wl_list_insert(&tracker->outputs, &ro->link);
}

static void handle_output_added(struct wl_listener *listener, void *data) {
	struct fw_damage_tracker *tracker =
			wl_container_of(listener, tracker, new_output);
	fw_ratings_damage_add_output(tracker, data);
}

struct fw_damage_tracker *fw_ratings_damage_create(struct fw_server *server,
		const struct fw_damage_callbacks *callbacks, void *data) {
	struct fw_damage_tracker *tracker = calloc(1, sizeof(*tracker));
	if (tracker == NULL) {
		return NULL;
	}
	tracker->server = server;
	tracker->callbacks = *callbacks;
	tracker->data = data;
	wl_list_init(&tracker->damage);
	wl_list_init(&tracker->outputs);
	fw_listener_connect(&tracker->new_surface,
			&server->compositor->events.new_surface, handle_new_surface);
	fw_listener_connect(&tracker->new_output,
			&server->backend->events.new_output, handle_output_added);
	return tracker;
}

void fw_ratings_damage_destroy(struct fw_damage_tracker *tracker) {
	if (tracker == NULL) {
		return;
	}
	wl_list_remove(&tracker->new_surface.link);
	wl_list_remove(&tracker->new_output.link);
	struct fw_damage *damage, *damage_tmp;
	wl_list_for_each_safe(damage, damage_tmp, &tracker->damage, link) {
		handle_damage_destroy(&damage->destroy, NULL);
	}
	struct fw_damage_output *ro, *ro_tmp;
	wl_list_for_each_safe(ro, ro_tmp, &tracker->outputs, link) {
		handle_output_destroy(&ro->destroy, NULL);
	}
	free(tracker);
}
