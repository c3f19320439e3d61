#include "compositor/input.h"
#include "compositor/output.h"
#include "compositor/server.h"
#include <stdlib.h>
#include <wlr/types/wlr_layer_shell_v1.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_output_layout.h>
#include <wlr/types/wlr_scene.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/types/wlr_xdg_shell.h>
#include <wlr/util/log.h>

struct fw_layer_surface {
	struct wl_list link; /* fw_output.layer_surfaces */
	struct fw_server *server;
	struct fw_output *output;
	struct wlr_layer_surface_v1 *layer_surface;
	struct wlr_scene_node *node;
	enum zwlr_layer_shell_v1_layer layer;

	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener commit;
	struct wl_listener new_popup;
	struct wl_listener destroy;
};

struct fw_layer_popup {
	struct wlr_xdg_popup *popup;
	struct wl_listener destroy;
};

static enum fw_layer scene_layer(enum zwlr_layer_shell_v1_layer layer) {
	switch (layer) {
	case ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND:
		return FW_LAYER_BACKGROUND;
	case ZWLR_LAYER_SHELL_V1_LAYER_BOTTOM:
		return FW_LAYER_BOTTOM;
	case ZWLR_LAYER_SHELL_V1_LAYER_TOP:
		return FW_LAYER_TOP;
	case ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY:
		break;
	}
	return FW_LAYER_OVERLAY;
}

/*
 * Places one surface inside bounds (the output box, shrunk by the exclusive
 * zones of surfaces arranged before it) and shrinks usable by its own zone.
 */
static void arrange_one(struct fw_layer_surface *surface,
		const struct wlr_box *full, struct wlr_box *usable,
		bool exclusive_pass) {
	struct wlr_layer_surface_v1_state *state = &surface->layer_surface->current;
	bool exclusive = state->exclusive_zone > 0;
	if (exclusive != exclusive_pass) {
		return;
	}
	const uint32_t both_h = ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT |
			ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT;
	const uint32_t both_v = ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP |
			ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM;
	/* A zone of -1 asks to ignore other surfaces' zones. */
	const struct wlr_box *bounds = state->exclusive_zone == -1 ? full : usable;

	struct wlr_box box = {
			.width = (int)state->desired_width,
			.height = (int)state->desired_height,
	};
	if (box.width == 0 || (state->anchor & both_h) == both_h) {
		box.width =
				bounds->width - (int)(state->margin.left + state->margin.right);
	}
	if (box.height == 0 || (state->anchor & both_v) == both_v) {
		box.height = bounds->height -
				(int)(state->margin.top + state->margin.bottom);
	}
	if ((state->anchor & both_h) == ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT) {
		box.x = bounds->x + (int)state->margin.left;
	} else if ((state->anchor & both_h) == ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT) {
		box.x = bounds->x + bounds->width - box.width -
				(int)state->margin.right;
	} else {
		box.x = bounds->x + (bounds->width - box.width) / 2;
	}
	if ((state->anchor & both_v) == ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP) {
		box.y = bounds->y + (int)state->margin.top;
	} else if ((state->anchor & both_v) ==
			ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM) {
		box.y = bounds->y + bounds->height - box.height -
				(int)state->margin.bottom;
	} else {
		box.y = bounds->y + (bounds->height - box.height) / 2;
	}
	if (box.width < 1 || box.height < 1) {
		/* The client asked for the impossible; the protocol says close. */
		wlr_layer_surface_v1_destroy(surface->layer_surface);
		return;
	}

	if (exclusive) {
		int zone = state->exclusive_zone;
		uint32_t anchor = state->anchor;
		/* The zone applies to the edge the surface is anchored to alone. */
		if (anchor == ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP ||
				anchor == (ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | both_h)) {
			usable->y += zone + (int)state->margin.top;
			usable->height -= zone + (int)state->margin.top;
		} else if (anchor == ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM ||
				anchor == (ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM | both_h)) {
			usable->height -= zone + (int)state->margin.bottom;
		} else if (anchor == ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT ||
				anchor == (ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT | both_v)) {
			usable->x += zone + (int)state->margin.left;
			usable->width -= zone + (int)state->margin.left;
		} else if (anchor == ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT ||
				anchor == (ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT | both_v)) {
			usable->width -= zone + (int)state->margin.right;
		}
	}

	wlr_scene_node_set_position(surface->node, box.x, box.y);
	wlr_layer_surface_v1_configure(
			surface->layer_surface, (uint32_t)box.width, (uint32_t)box.height);
}

void fw_output_arrange_layers(struct fw_output *output) {
	struct wlr_box full;
	fw_output_box(output, &full);
	struct wlr_box usable = full;
	struct fw_layer_surface *surface, *tmp;
	/* Exclusive surfaces first, so the others fit in what is left. */
	for (int pass = 1; pass >= 0; pass--) {
		wl_list_for_each_safe(surface, tmp, &output->layer_surfaces, link) {
			if (!surface->layer_surface->added) {
				continue;
			}
			arrange_one(surface, &full, &usable, pass == 1);
		}
	}
	output->usable_area = usable;
}

static void handle_map(struct wl_listener *listener, void *data) {
	struct fw_layer_surface *surface = wl_container_of(listener, surface, map);
	wlr_scene_node_set_enabled(surface->node, true);
	if (surface->layer_surface->current.keyboard_interactive !=
			ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE) {
		fw_seat_focus_surface(surface->server, surface->layer_surface->surface);
	}
}

static void handle_unmap(struct wl_listener *listener, void *data) {
	struct fw_layer_surface *surface =
			wl_container_of(listener, surface, unmap);
	wlr_scene_node_set_enabled(surface->node, false);
	struct wlr_seat *seat = surface->server->seat;
	if (seat->keyboard_state.focused_surface ==
			surface->layer_surface->surface) {
		fw_seat_focus_surface(surface->server, NULL);
	}
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct fw_layer_surface *surface =
			wl_container_of(listener, surface, commit);
	struct wlr_layer_surface_v1 *layer_surface = surface->layer_surface;
	if (layer_surface->current.layer != surface->layer) {
		surface->layer = layer_surface->current.layer;
		wlr_scene_node_reparent(surface->node,
				&surface->server->layers[scene_layer(surface->layer)]->node);
	}
	/* Arranging sends a configure, so only do it on state changes. */
	if (surface->output != NULL &&
			(layer_surface->current.committed != 0 ||
					!layer_surface->configured)) {
		fw_output_arrange_layers(surface->output);
	}
}

static void handle_popup_destroy(struct wl_listener *listener, void *data) {
	struct fw_layer_popup *popup = wl_container_of(listener, popup, destroy);
	wl_list_remove(&popup->destroy.link);
	free(popup);
}

static void handle_new_popup(struct wl_listener *listener, void *data) {
	struct fw_layer_surface *surface =
			wl_container_of(listener, surface, new_popup);
	struct wlr_xdg_popup *wlr_popup = data;
	/* The popup tree lives with its parent so it moves along. */
	struct wlr_scene_node *node =
			wlr_scene_xdg_surface_create(surface->node, wlr_popup->base);
	if (node == NULL) {
		return;
	}
	struct fw_layer_popup *popup = calloc(1, sizeof(*popup));
	if (popup == NULL) {
		return;
	}
	/* Nested popups find their parent's node here (xdg_shell.c). */
	wlr_popup->base->data = node;
	popup->popup = wlr_popup;
	popup->destroy.notify = handle_popup_destroy;
	wl_signal_add(&wlr_popup->base->events.destroy, &popup->destroy);

	if (surface->output == NULL) {
		return;
	}
	int lx, ly;
	wlr_scene_node_coords(surface->node, &lx, &ly);
	struct wlr_box box;
	fw_output_box(surface->output, &box);
	box.x -= lx;
	box.y -= ly;
	wlr_xdg_popup_unconstrain_from_box(wlr_popup, &box);
	/* Popups of bottom layers must not hide under windows. */
	wlr_scene_node_raise_to_top(surface->node);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct fw_layer_surface *surface =
			wl_container_of(listener, surface, destroy);
	wl_list_remove(&surface->map.link);
	wl_list_remove(&surface->unmap.link);
	wl_list_remove(&surface->commit.link);
	wl_list_remove(&surface->new_popup.link);
	wl_list_remove(&surface->destroy.link);
	wl_list_remove(&surface->link);
	wlr_scene_node_destroy(surface->node);
	struct fw_output *output = surface->output;
	free(surface);
	if (output != NULL) {
		fw_output_arrange_layers(output);
	}
}

void fw_layer_surface_close(struct wl_list *link) {
	struct fw_layer_surface *surface = wl_container_of(link, surface, link);
	/* Unhook from the output first: it is going away. */
	wl_list_remove(&surface->link);
	wl_list_init(&surface->link);
	surface->output = NULL;
	wlr_layer_surface_v1_destroy(surface->layer_surface);
}

void handle_new_layer_surface(struct wl_listener *listener, void *data) {
	struct fw_server *server =
			wl_container_of(listener, server, new_layer_surface);
	struct wlr_layer_surface_v1 *layer_surface = data;

	if (layer_surface->output == NULL) {
		struct fw_output *focused = fw_output_focused(server);
		if (focused == NULL) {
			wlr_layer_surface_v1_destroy(layer_surface);
			return;
		}
		layer_surface->output = focused->wlr_output;
	}
	struct fw_output *output = layer_surface->output->data;
	if (output == NULL) {
		wlr_layer_surface_v1_destroy(layer_surface);
		return;
	}

	struct fw_layer_surface *surface = calloc(1, sizeof(*surface));
	if (surface == NULL) {
		wlr_layer_surface_v1_destroy(layer_surface);
		return;
	}
	surface->server = server;
	surface->output = output;
	surface->layer_surface = layer_surface;
	surface->layer = layer_surface->pending.layer;
	surface->node = wlr_scene_subsurface_tree_create(
			&server->layers[scene_layer(surface->layer)]->node,
			layer_surface->surface);
	if (surface->node == NULL) {
		free(surface);
		wlr_layer_surface_v1_destroy(layer_surface);
		return;
	}
	wlr_scene_node_set_enabled(surface->node, false);
	layer_surface->data = surface;

	surface->map.notify = handle_map;
	wl_signal_add(&layer_surface->events.map, &surface->map);
	surface->unmap.notify = handle_unmap;
	wl_signal_add(&layer_surface->events.unmap, &surface->unmap);
	surface->commit.notify = handle_commit;
	wl_signal_add(&layer_surface->surface->events.commit, &surface->commit);
	surface->new_popup.notify = handle_new_popup;
	wl_signal_add(&layer_surface->events.new_popup, &surface->new_popup);
	surface->destroy.notify = handle_destroy;
	wl_signal_add(&layer_surface->events.destroy, &surface->destroy);
	wl_list_insert(&output->layer_surfaces, &surface->link);
}
