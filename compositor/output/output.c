#include "compositor/output/output.h"
#include "compositor/listener.h"
#include "compositor/lock/idle.h"
#include "compositor/output/commit_timing.h"
#include "compositor/output/fifo.h"
#include "compositor/output/frame_schedule.h"
#include "compositor/output/nested.h"
#include "compositor/output/output_config.h"
#include "compositor/output/presentation.h"
#include "compositor/output/render.h"
#include "compositor/server.h"
#include "compositor/shell/layer_shell.h"
#include "compositor/shell/view.h"
#include <stdlib.h>
#include <time.h>
#include <wlr/backend.h>
#include <wlr/backend/drm.h>
#include <wlr/render/allocator.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/types/wlr_cursor.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_output_management_v1.h>
#include <wlr/types/wlr_output_power_management_v1.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_tearing_control_v1.h>
#include <wlr/types/wlr_xcursor_manager.h>
#include <wlr/util/log.h>

/* The frame is committed, or there was none to commit. */
static void painted(struct fw_output *output, enum fw_render_result result) {
	bool committed = result == FW_RENDER_COMMITTED;
	if (result == FW_RENDER_DISCARDED) {
		/* What it showed was never shown. */
		fw_presentation_discard(output, output->paint_seq);
	}
	if (committed) {
		output->server->frames_rendered++;
	}
	/* A frame is where a surface shows or stops showing. */
	fw_idle_update(output->server);
	if (output->frames != NULL) {
		fw_frame_schedule_output_painted(output->frames, committed);
		return;
	}
	/* --frame-schedule off: every frame done once painted, even with
	 * nothing damaged, as clients wait on them. */
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	wlr_scene_output_send_frame_done(output->scene_output, &now);
}

static void handle_painted(void *data, enum fw_render_result result) {
	painted(data, result);
}

/*
 * wp_tearing_control_v1: the window in front on this output is fullscreen
 * and asks for its frames at once rather than in step with the refresh
 * (games). Only DRM can flip so, where the kernel can, and only through
 * wlr_scene's pass (render.h); the hint is kept per surface by wlroots
 * either way.
 */
static bool wants_tearing(struct fw_output *output) {
	struct fw_server *server = output->server;
	if (server->tearing_control == NULL ||
			!wlr_output_is_drm(output->wlr_output)) {
		return false;
	}
	struct fw_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (!view->mapped || view->surface == NULL ||
				fw_output_at(server, view->x, view->y) != output) {
			continue;
		}
		return view->fullscreen &&
				wlr_tearing_control_manager_v1_surface_hint_from_surface(
						server->tearing_control, view->surface) ==
				WP_TEARING_CONTROL_V1_PRESENTATION_HINT_ASYNC;
	}
	return false;
}

void fw_output_paint(struct fw_output *output, bool unchanged) {
	if (output->scene_output == NULL) {
		/* Out of the layout since the paint was planned. */
		painted(output, FW_RENDER_IDLE);
		return;
	}
	/* Commits held for a target time this paint meets join it. */
	fw_commit_timing_output_paint(output->server->commit_timing, output);
	fw_presentation_sample(output);
	output->paint_seq = output->wlr_output->commit_seq + 1;
	struct fw_render_options options = {
			.tearing = wants_tearing(output),
			.unchanged = unchanged,
	};
	enum fw_render_result result = output->server->config.render_direct
			? fw_render_output_paint(
					  output->render, output->scene_output, &options)
			: fw_render_scene_commit(output->scene_output, &options);
	/* What the surfaces committed is taken (the paint worker paints it from
	 * buffers locked now): their fifo barriers clear. */
	fw_fifo_manager_output_latched(output->server->fifo, output);
	if (result != FW_RENDER_PAINTING) {
		painted(output, result);
	}
}

bool fw_output_damaged(struct fw_output *output) {
	return output->scene_output != NULL &&
			pixman_region32_not_empty(
					&output->scene_output->pending_commit_damage);
}

bool fw_output_painting(struct fw_output *output) {
	return fw_render_output_busy(output->render);
}

void fw_output_discard_paint(struct fw_output *output) {
	fw_render_output_discard(output->render);
}

static void handle_frame(struct wl_listener *listener, void *data) {
	struct fw_output *output = wl_container_of(listener, output, frame);
	if (output->scene_output == NULL) {
		/* Not in the layout: nothing of the scene shows on it. */
		return;
	}
	if (output->frames != NULL) {
		fw_frame_schedule_output_frame(output->frames);
		return;
	}
	/* --frame-schedule off: paint at once, then every frame done; a frame
	 * still being painted makes this one wait for the next. */
	if (!fw_output_painting(output)) {
		fw_output_paint(output, true);
	}
}

static void handle_output_destroy(struct wl_listener *listener, void *data) {
	struct fw_output *output = wl_container_of(listener, output, destroy);
	wlr_log(WLR_INFO, "Output %s removed", output->wlr_output->name);
	wl_list_remove(&output->frame.link);
	wl_list_remove(&output->destroy.link);
	fw_render_output_destroy(output->render);
	fw_frame_schedule_output_destroy(output->frames);
	fw_presentation_finish(output);
	/* Layer surfaces die with their output; each unlinks itself. */
	while (!wl_list_empty(&output->layer_surfaces)) {
		fw_layer_shell_close(output->layer_surfaces.next);
	}
	wl_list_remove(&output->link);
	output->wlr_output->data = NULL;
	free(output);
}

void fw_output_usable_area(struct fw_output *output, struct wlr_box *box) {
	*box = output->usable_area;
	if (box->width <= 0 || box->height <= 0) {
		fw_output_box(output, box);
	}
}

struct surface_walk {
	void (*iterator)(struct wlr_surface *surface, void *data);
	void *data;
};

static void walk_buffer(
		struct wlr_scene_buffer *buffer, int sx, int sy, void *data) {
	struct surface_walk *walk = data;
	struct wlr_scene_surface *scene_surface =
			wlr_scene_surface_try_from_buffer(buffer);
	if (scene_surface != NULL) {
		walk->iterator(scene_surface->surface, walk->data);
	}
}

void fw_output_for_each_surface(struct fw_output *output,
		void (*iterator)(struct wlr_surface *surface, void *data), void *data) {
	if (output->scene_output == NULL) {
		return;
	}
	struct surface_walk walk = {.iterator = iterator, .data = data};
	wlr_scene_output_for_each_buffer(output->scene_output, walk_buffer, &walk);
}

void fw_output_box(struct fw_output *output, struct wlr_box *box) {
	/* Empty when not (or no longer) in the layout. */
	wlr_output_layout_get_box(
			output->server->output_layout, output->wlr_output, box);
}

bool fw_output_layout_add(
		struct fw_output *output, bool automatic, int x, int y) {
	struct fw_server *server = output->server;
	struct wlr_output_layout_output *layout_output = automatic
			? wlr_output_layout_add_auto(
					  server->output_layout, output->wlr_output)
			: wlr_output_layout_add(
					  server->output_layout, output->wlr_output, x, y);
	if (layout_output == NULL) {
		return false;
	}
	if (output->scene_output == NULL) {
		output->scene_output =
				wlr_scene_output_create(server->scene, output->wlr_output);
		if (output->scene_output == NULL) {
			wlr_output_layout_remove(server->output_layout, output->wlr_output);
			return false;
		}
	}
	/* From now on the scene output follows the layout output. */
	wlr_scene_output_layout_add_output(
			server->scene_layout, layout_output, output->scene_output);
	return true;
}

void fw_output_layout_remove(struct fw_output *output) {
	wlr_output_layout_remove(output->server->output_layout, output->wlr_output);
	/* Its surfaces leave it; a frame being painted for it is dropped. */
	wlr_scene_output_destroy(output->scene_output);
	output->scene_output = NULL;
}

struct fw_output *fw_output_at(struct fw_server *server, double lx, double ly) {
	struct wlr_output *wlr_output =
			wlr_output_layout_output_at(server->output_layout, lx, ly);
	return wlr_output != NULL ? wlr_output->data : NULL;
}

struct fw_output *fw_output_focused(struct fw_server *server) {
	struct fw_output *output = NULL;
	if (server->cursor != NULL) {
		output = fw_output_at(server, server->cursor->x, server->cursor->y);
	}
	if (output == NULL && !wl_list_empty(&server->outputs)) {
		output = wl_container_of(server->outputs.next, output, link);
	}
	return output;
}

static void handle_new_output(struct wl_listener *listener, void *data) {
	struct fw_server *server = wl_container_of(listener, server, new_output);
	struct wlr_output *wlr_output = data;

	if (!wlr_output_init_render(
				wlr_output, server->allocator, server->renderer)) {
		wlr_log(WLR_ERROR, "Cannot init rendering on output %s",
				wlr_output->name);
		return;
	}
	if (!fw_output_config_commit_first(server, wlr_output)) {
		wlr_log(WLR_ERROR, "Cannot enable output %s", wlr_output->name);
		return;
	}

	struct fw_output *output = calloc(1, sizeof(*output));
	if (output == NULL) {
		return;
	}
	output->server = server;
	output->wlr_output = wlr_output;
	wlr_output->data = output;
	wl_list_init(&output->layer_surfaces);
	wl_list_insert(server->outputs.prev, &output->link);

	/* The scene output comes with the output's place in the layout. */
	output->render = fw_render_output_create(
			wlr_output, server->paint_worker, handle_painted, output);
	if (output->render == NULL || !fw_output_config_place(output)) {
		fw_output_layout_remove(output);
		fw_render_output_destroy(output->render);
		wl_list_remove(&output->link);
		wlr_output->data = NULL;
		free(output);
		return;
	}
	fw_presentation_init(output);
	if (server->frame_schedule != NULL) {
		output->frames =
				fw_frame_schedule_output_create(server->frame_schedule, output);
		if (output->frames == NULL) {
			wlr_log(WLR_ERROR,
					"Cannot schedule frames on %s: painting on its frame event",
					wlr_output->name);
		}
	}
	fw_listener_connect(
			&output->frame, &wlr_output->events.frame, handle_frame);
	fw_listener_connect(&output->destroy, &wlr_output->events.destroy,
			handle_output_destroy);

	wlr_xcursor_manager_load(server->cursor_manager, wlr_output->scale);
	fw_nested_name_output(server, wlr_output);
	fw_layer_shell_arrange(output);
	wlr_log(WLR_INFO, "Output %s added (%dx%d)", wlr_output->name,
			wlr_output->width, wlr_output->height);
}

/* Brings windows stranded on a removed output back into view. */
/*
 * A window whose corner no output shows any more (an output went, or
 * shrank) moves the least it must: into the output nearest to where it
 * was, whole if it fits. Windows keep their places relative to each
 * other rather than piling up in one spot.
 */
static void rescue_view(struct fw_server *server, struct fw_view *view) {
	double lx, ly;
	wlr_output_layout_closest_point(
			server->output_layout, NULL, view->x, view->y, &lx, &ly);
	struct wlr_output *wlr_output =
			wlr_output_layout_output_at(server->output_layout, lx, ly);
	if (wlr_output == NULL) {
		return;
	}
	struct wlr_box box;
	wlr_output_layout_get_box(server->output_layout, wlr_output, &box);
	int width, height;
	view->impl->get_size(view, &width, &height);
	int top = box.y + FW_TITLEBAR_HEIGHT;
	int x = view->x, y = view->y;
	if (x + width > box.x + box.width) {
		x = box.x + box.width - width;
	}
	if (y + height > box.y + box.height) {
		y = box.y + box.height - height;
	}
	x = x < box.x ? box.x : x;
	y = y < top ? top : y;
	fw_view_move(view, x, y);
}

/*
 * Windows stranded off every output come back first; then the windows on
 * an output whose size in the layout changed (a mode, scale or transform)
 * fit it again: at scale 1.5 a window that filled the output would
 * otherwise run past it.
 */
static void rescue_views(struct fw_server *server) {
	struct fw_view *view;
	wl_list_for_each(view, &server->views, link) {
		if (view->mapped &&
				wlr_output_layout_output_at(server->output_layout, view->x + 1,
						view->y + 1) == NULL) {
			rescue_view(server, view);
		}
	}
	struct fw_output *output;
	wl_list_for_each(output, &server->outputs, link) {
		struct wlr_box box, was = output->fitted_box;
		fw_output_box(output, &box);
		output->fitted_box = box;
		if (!wlr_box_empty(&box) && !wlr_box_empty(&was) &&
				(box.width != was.width || box.height != was.height)) {
			fw_view_refit(server, output);
		}
	}
}

void fw_output_update_manager(struct fw_server *server) {
	if (server->output_manager == NULL) {
		return;
	}
	struct wlr_output_configuration_v1 *config =
			wlr_output_configuration_v1_create();
	if (config == NULL) {
		return;
	}
	struct fw_output *output;
	wl_list_for_each(output, &server->outputs, link) {
		struct wlr_output_configuration_head_v1 *head =
				wlr_output_configuration_head_v1_create(
						config, output->wlr_output);
		if (head == NULL) {
			continue;
		}
		struct wlr_box box;
		fw_output_box(output, &box);
		head->state.enabled = output->wlr_output->enabled;
		head->state.x = box.x;
		head->state.y = box.y;
	}
	wlr_output_manager_v1_set_configuration(server->output_manager, config);
}

static void handle_layout_change(struct wl_listener *listener, void *data) {
	struct fw_server *server = wl_container_of(listener, server, layout_change);
	struct fw_output *output;
	wl_list_for_each(output, &server->outputs, link) {
		fw_layer_shell_arrange(output);
	}
	if (!server->configuring_outputs) {
		rescue_views(server);
	}
	fw_output_update_manager(server);
}

static bool apply_head(struct fw_server *server,
		struct wlr_output_configuration_head_v1 *head, bool test_only) {
	struct wlr_output *wlr_output = head->state.output;
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	wlr_output_head_v1_state_apply(&head->state, &state);
	bool ok = test_only ? wlr_output_test_state(wlr_output, &state)
						: wlr_output_commit_state(wlr_output, &state);
	wlr_output_state_finish(&state);
	if (!ok || test_only) {
		return ok;
	}
	struct fw_output *output = wlr_output->data;
	if (output == NULL) {
		/* fairway could not take it on: it has a place but no scene. */
		if (head->state.enabled) {
			wlr_output_layout_add(server->output_layout, wlr_output,
					head->state.x, head->state.y);
		} else {
			wlr_output_layout_remove(server->output_layout, wlr_output);
		}
		return true;
	}
	if (head->state.enabled) {
		return fw_output_layout_add(
				output, false, head->state.x, head->state.y);
	}
	fw_output_layout_remove(output);
	return true;
}

static void configure_outputs(struct fw_server *server,
		struct wlr_output_configuration_v1 *config, bool test_only) {
	bool ok = true;
	server->configuring_outputs = true;
	struct wlr_output_configuration_head_v1 *head;
	wl_list_for_each(head, &config->heads, link) {
		ok = apply_head(server, head, test_only) && ok;
	}
	server->configuring_outputs = false;
	if (!test_only) {
		rescue_views(server);
	}
	if (ok) {
		wlr_output_configuration_v1_send_succeeded(config);
	} else {
		wlr_output_configuration_v1_send_failed(config);
	}
	wlr_output_configuration_v1_destroy(config);
	if (!test_only) {
		fw_output_update_manager(server);
	}
}

static void handle_output_manager_apply(
		struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, output_manager_apply);
	configure_outputs(server, data, false);
}

static void handle_output_manager_test(
		struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, output_manager_test);
	configure_outputs(server, data, true);
}

static void handle_output_power_set_mode(
		struct wl_listener *listener, void *data) {
	struct wlr_output_power_v1_set_mode_event *event = data;
	struct wlr_output_state state;
	wlr_output_state_init(&state);
	wlr_output_state_set_enabled(
			&state, event->mode == ZWLR_OUTPUT_POWER_V1_MODE_ON);
	if (!wlr_output_commit_state(event->output, &state)) {
		wlr_log(WLR_ERROR, "Cannot change the power mode of %s",
				event->output->name);
	}
	wlr_output_state_finish(&state);
}

void fw_output_init(struct fw_server *server) {
	fw_listener_connect(&server->new_output,
			&server->backend->events.new_output, handle_new_output);
	fw_listener_connect(&server->layout_change,
			&server->output_layout->events.change, handle_layout_change);

	server->output_manager = wlr_output_manager_v1_create(server->display);
	if (server->output_manager != NULL) {
		fw_listener_connect(&server->output_manager_apply,
				&server->output_manager->events.apply,
				handle_output_manager_apply);
		fw_listener_connect(&server->output_manager_test,
				&server->output_manager->events.test,
				handle_output_manager_test);
	}
	server->output_power = wlr_output_power_manager_v1_create(server->display);
	if (server->output_power != NULL) {
		fw_listener_connect(&server->output_power_set_mode,
				&server->output_power->events.set_mode,
				handle_output_power_set_mode);
	}
}

void fw_output_finish(struct fw_server *server) {
	fw_listener_disconnect(&server->new_output);
	fw_listener_disconnect(&server->layout_change);
	fw_listener_disconnect(&server->output_manager_apply);
	fw_listener_disconnect(&server->output_manager_test);
	fw_listener_disconnect(&server->output_power_set_mode);
	server->output_manager = NULL;
	server->output_power = NULL;
}
