/*
 * wlr-layer-shell surfaces: bars, wallpapers, launchers, notifications.
 *
 * Each output arranges its surfaces as the protocol describes: a surface is
 * placed by its anchors and margins; one with a positive exclusive zone,
 * anchored to one edge (alone or with both edges perpendicular to it),
 * takes zone + margin off that edge of the area left for windows
 * (fw_output.usable_area). Whenever that area changes, maximized windows
 * are fitted to it again and the others move out of the zones.
 *
 * Keyboard focus follows protocol version 4: a mapped surface on the top or
 * overlay layer asking for exclusive interactivity holds the keyboard until
 * it goes (windows may still be raised and activated meanwhile, but get no
 * keyboard); on_demand surfaces, and exclusive ones on the lower layers,
 * take it when clicked, as a window does. When a surface that held the
 * keyboard goes, the keyboard returns to the front window.
 */
#include "compositor/shell/layer_shell.h"
#include "compositor/input/seat.h"
#include "compositor/listener.h"
#include "compositor/output/output.h"
#include "compositor/server.h"
#include "compositor/shell/view.h"
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
	struct wlr_scene_tree *tree;
	/* Popups live above every window, wherever their parent is stacked. */
	struct wlr_scene_tree *popups;
	enum zwlr_layer_shell_v1_layer layer;
	/* The size last sent, and whether a commit asks for a configure. */
	int width, height;
	bool configure_due;
	bool doomed; /* could not be placed: closed after arranging */

	struct wl_listener map;
	struct wl_listener unmap;
	struct wl_listener client_commit;
	struct wl_listener commit;
	struct wl_listener new_popup;
	struct wl_listener destroy;
};

static const uint32_t both_h =
		ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT | ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT;
static const uint32_t both_v =
		ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM;

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
 * One axis of a surface's box: start and length inside [lo, lo + span),
 * from whether it is anchored at either end, its margins there and the
 * length it asked for (0: as long as the anchors allow).
 */
static void place_axis(int lo, int span, bool at_start, bool at_end,
		int margin_start, int margin_end, int desired, int *pos, int *len) {
	/* Margins count only at the edges the surface is anchored to. */
	if (!at_start) {
		margin_start = 0;
	}
	if (!at_end) {
		margin_end = 0;
	}
	int room = span - margin_start - margin_end;
	*len = desired > 0 ? desired : room;
	if (at_start && !at_end) {
		*pos = lo + margin_start;
	} else if (at_end && !at_start) {
		*pos = lo + span - margin_end - *len;
	} else {
		/* Both anchors or none: centred in what the margins leave. */
		*pos = lo + margin_start + (room - *len) / 2;
	}
}

/* Takes the surface's exclusive zone off the edge it is anchored to. */
static void take_zone(const struct wlr_layer_surface_v1_state *state,
		struct wlr_box *usable) {
	if (state->exclusive_zone <= 0) {
		return;
	}
	uint32_t anchor = state->anchor;
	int zone = state->exclusive_zone;
	/* An edge alone, or an edge and both edges across it; else no zone. */
	if (anchor == ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP ||
			anchor == (ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP | both_h)) {
		zone += (int)state->margin.top;
		usable->y += zone;
		usable->height -= zone;
	} else if (anchor == ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM ||
			anchor == (ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM | both_h)) {
		usable->height -= zone + (int)state->margin.bottom;
	} else if (anchor == ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT ||
			anchor == (ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT | both_v)) {
		zone += (int)state->margin.left;
		usable->x += zone;
		usable->width -= zone;
	} else if (anchor == ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT ||
			anchor == (ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT | both_v)) {
		usable->width -= zone + (int)state->margin.right;
	}
	if (usable->width < 0) {
		usable->width = 0;
	}
	if (usable->height < 0) {
		usable->height = 0;
	}
}

/*
 * Places one surface inside the output box (exclusive zone -1) or what the
 * exclusive zones of surfaces arranged before it left, and takes its own
 * zone from usable once it is mapped.
 */
static void arrange_one(struct fw_layer_surface *surface,
		const struct wlr_box *full, struct wlr_box *usable) {
	struct wlr_layer_surface_v1 *layer_surface = surface->layer_surface;
	struct wlr_layer_surface_v1_state *state = &layer_surface->current;
	const struct wlr_box *bounds = state->exclusive_zone == -1 ? full : usable;

	struct wlr_box box;
	place_axis(bounds->x, bounds->width,
			state->anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT,
			state->anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT,
			(int)state->margin.left, (int)state->margin.right,
			(int)state->desired_width, &box.x, &box.width);
	place_axis(bounds->y, bounds->height,
			state->anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP,
			state->anchor & ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM,
			(int)state->margin.top, (int)state->margin.bottom,
			(int)state->desired_height, &box.y, &box.height);
	if (box.width < 1 || box.height < 1) {
		/* The client asked for the impossible; the protocol says close. */
		surface->doomed = true;
		return;
	}

	if (layer_surface->surface->mapped) {
		take_zone(state, usable);
	}
	wlr_scene_node_set_position(&surface->tree->node, box.x, box.y);
	if (surface->popups != NULL) {
		wlr_scene_node_set_position(&surface->popups->node, box.x, box.y);
	}
	if (surface->configure_due || box.width != surface->width ||
			box.height != surface->height) {
		surface->configure_due = false;
		surface->width = box.width;
		surface->height = box.height;
		wlr_layer_surface_v1_configure(
				layer_surface, (uint32_t)box.width, (uint32_t)box.height);
	}
}

void fw_layer_shell_arrange(struct fw_output *output) {
	struct wlr_box full;
	fw_output_box(output, &full);
	struct wlr_box usable = full;
	struct fw_layer_surface *surface;
	/*
	 * Surfaces with a zone first, top layer first, so that the others fit
	 * in what is left; a surface is placed inside the zones taken before it.
	 */
	for (int pass = 0; pass < 2; pass++) {
		for (int layer = ZWLR_LAYER_SHELL_V1_LAYER_OVERLAY;
				layer >= ZWLR_LAYER_SHELL_V1_LAYER_BACKGROUND; layer--) {
			wl_list_for_each(surface, &output->layer_surfaces, link) {
				struct wlr_layer_surface_v1 *layer_surface =
						surface->layer_surface;
				/* Before its initial commit, no configure may go. */
				if (!layer_surface->initialized || surface->doomed ||
						(int)layer_surface->current.layer != layer ||
						(layer_surface->current.exclusive_zone > 0) !=
								(pass == 0)) {
					continue;
				}
				arrange_one(surface, &full, &usable);
			}
		}
	}
	bool changed = usable.x != output->usable_area.x ||
			usable.y != output->usable_area.y ||
			usable.width != output->usable_area.width ||
			usable.height != output->usable_area.height;
	output->usable_area = usable;
	if (changed) {
		fw_view_refit_zones(output->server, output);
	}

	/* Closing one arranges the output again, without it. */
	wl_list_for_each(surface, &output->layer_surfaces, link) {
		if (surface->doomed) {
			wlr_log(WLR_INFO, "Closing layer surface %s: it does not fit",
					surface->layer_surface->namespace);
			wlr_layer_surface_v1_destroy(surface->layer_surface);
			return;
		}
	}
}

/* The layer surface a surface (or a popup of one) belongs to, or NULL. */
static struct fw_layer_surface *layer_surface_of(struct wlr_surface *surface) {
	while (surface != NULL) {
		surface = wlr_surface_get_root_surface(surface);
		struct wlr_layer_surface_v1 *layer_surface =
				wlr_layer_surface_v1_try_from_wlr_surface(surface);
		if (layer_surface != NULL) {
			return layer_surface->data;
		}
		struct wlr_xdg_surface *xdg =
				wlr_xdg_surface_try_from_wlr_surface(surface);
		if (xdg == NULL || xdg->role != WLR_XDG_SURFACE_ROLE_POPUP ||
				xdg->popup == NULL) {
			return NULL;
		}
		surface = xdg->popup->parent;
	}
	return NULL;
}

static bool holds_keyboard(struct fw_layer_surface *surface) {
	struct wlr_layer_surface_v1 *layer_surface = surface->layer_surface;
	return layer_surface->surface->mapped &&
			layer_surface->current.keyboard_interactive ==
			ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE &&
			layer_surface->current.layer >= ZWLR_LAYER_SHELL_V1_LAYER_TOP;
}

/* The mapped top or overlay surface that asks for the keyboard alone. */
static struct fw_layer_surface *exclusive_surface(struct fw_server *server) {
	struct fw_layer_surface *found = NULL;
	struct fw_output *output;
	wl_list_for_each(output, &server->outputs, link) {
		struct fw_layer_surface *surface;
		wl_list_for_each(surface, &output->layer_surfaces, link) {
			if (holds_keyboard(surface) &&
					(found == NULL ||
							surface->layer_surface->current.layer >
									found->layer_surface->current.layer)) {
				found = surface;
			}
		}
	}
	return found;
}

bool fw_layer_shell_grabs_keyboard(struct fw_server *server) {
	return exclusive_surface(server) != NULL;
}

/*
 * Gives the keyboard to whoever should have it now that a surface came,
 * went or changed its interactivity.
 */
static void refocus(struct fw_server *server) {
	struct fw_layer_surface *exclusive = exclusive_surface(server);
	if (exclusive != NULL) {
		fw_seat_focus_surface(server, exclusive->layer_surface->surface);
		return;
	}
	struct wlr_surface *focused = server->seat->keyboard_state.focused_surface;
	struct fw_layer_surface *holder =
			focused != NULL ? layer_surface_of(focused) : NULL;
	if (focused != NULL && holder == NULL) {
		return; /* a window has it */
	}
	if (holder != NULL && holder->layer_surface->surface->mapped &&
			holder->layer_surface->current.keyboard_interactive !=
					ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE) {
		return;
	}
	/* Back to the front window, the one focused before. */
	struct fw_view *front = NULL;
	if (!wl_list_empty(&server->views)) {
		front = wl_container_of(server->views.next, front, link);
	}
	if (front != NULL && front->mapped) {
		fw_view_focus(front);
	} else if (focused != NULL) {
		fw_seat_focus_surface(server, NULL);
	}
}

bool fw_layer_shell_focus_clicked(
		struct fw_server *server, struct wlr_surface *surface) {
	struct fw_layer_surface *clicked = layer_surface_of(surface);
	if (clicked == NULL) {
		return false;
	}
	struct wlr_layer_surface_v1 *layer_surface = clicked->layer_surface;
	if (layer_surface->current.keyboard_interactive ==
					ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_NONE ||
			fw_layer_shell_grabs_keyboard(server)) {
		return true;
	}
	fw_seat_focus_surface(server, layer_surface->surface);
	return true;
}

static void handle_map(struct wl_listener *listener, void *data) {
	struct fw_layer_surface *surface = wl_container_of(listener, surface, map);
	wlr_scene_node_set_enabled(&surface->tree->node, true);
	if (surface->output != NULL) {
		/* Its exclusive zone counts from now on. */
		fw_layer_shell_arrange(surface->output);
	}
	/*
	 * A surface asking for the keyboard gets it as it maps, as a window
	 * does, unless another holds it; on_demand ones only above windows, as
	 * a panel below them should not take it from the window in use.
	 */
	struct wlr_layer_surface_v1_state *state = &surface->layer_surface->current;
	bool takes = state->keyboard_interactive ==
					ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_EXCLUSIVE ||
			(state->keyboard_interactive ==
							ZWLR_LAYER_SURFACE_V1_KEYBOARD_INTERACTIVITY_ON_DEMAND &&
					state->layer >= ZWLR_LAYER_SHELL_V1_LAYER_TOP);
	if (takes && !fw_layer_shell_grabs_keyboard(surface->server)) {
		fw_seat_focus_surface(surface->server, surface->layer_surface->surface);
	}
	refocus(surface->server);
}

static void handle_unmap(struct wl_listener *listener, void *data) {
	struct fw_layer_surface *surface =
			wl_container_of(listener, surface, unmap);
	wlr_scene_node_set_enabled(&surface->tree->node, false);
	struct fw_server *server = surface->server;
	if (server->seat->keyboard_state.focused_surface ==
			surface->layer_surface->surface) {
		/* Unmapped now: refocus looks past it. */
		wlr_seat_keyboard_clear_focus(server->seat);
	}
	if (surface->output != NULL) {
		fw_layer_shell_arrange(surface->output);
	}
	refocus(server);
}

/*
 * A zero width or height asks the compositor to fill the space between two
 * opposite anchors: without both, no size can be given. The wlroots
 * fairway runs on may let it through (Debian's 0.18.2 build does), so the
 * commit is refused here, before it applies, as the protocol says.
 */
static bool size_is_valid(const struct wlr_layer_surface_v1_state *state) {
	const uint32_t across = ZWLR_LAYER_SURFACE_V1_ANCHOR_LEFT |
			ZWLR_LAYER_SURFACE_V1_ANCHOR_RIGHT;
	const uint32_t down = ZWLR_LAYER_SURFACE_V1_ANCHOR_TOP |
			ZWLR_LAYER_SURFACE_V1_ANCHOR_BOTTOM;
	return (state->desired_width != 0 || (state->anchor & across) == across) &&
			(state->desired_height != 0 || (state->anchor & down) == down);
}

static void handle_client_commit(struct wl_listener *listener, void *data) {
	struct fw_layer_surface *surface =
			wl_container_of(listener, surface, client_commit);
	struct wlr_layer_surface_v1 *layer_surface = surface->layer_surface;
	if (!size_is_valid(&layer_surface->pending)) {
		wlr_surface_reject_pending(layer_surface->surface,
				layer_surface->resource,
				ZWLR_LAYER_SURFACE_V1_ERROR_INVALID_SIZE,
				"a zero width or height needs both opposite anchors");
	}
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct fw_layer_surface *surface =
			wl_container_of(listener, surface, commit);
	struct wlr_layer_surface_v1 *layer_surface = surface->layer_surface;
	if (!layer_surface->initialized) {
		/* Unmapped by a null buffer: nothing is sent until the client
		 * commits its initial state again. */
		return;
	}
	uint32_t committed = layer_surface->current.committed;
	if (layer_surface->current.layer != surface->layer) {
		surface->layer = layer_surface->current.layer;
		wlr_scene_node_reparent(&surface->tree->node,
				surface->server->layers[scene_layer(surface->layer)]);
	}
	/* Arranging sends configures, so only do it on state changes; the
	 * initial commit must get one. */
	if (surface->output != NULL &&
			(committed != 0 || layer_surface->initial_commit)) {
		surface->configure_due = true;
		fw_layer_shell_arrange(surface->output);
	}
	if (committed &
			(WLR_LAYER_SURFACE_V1_STATE_KEYBOARD_INTERACTIVITY |
					WLR_LAYER_SURFACE_V1_STATE_LAYER)) {
		refocus(surface->server);
	}
}

static void handle_new_popup(struct wl_listener *listener, void *data) {
	struct fw_layer_surface *surface =
			wl_container_of(listener, surface, new_popup);
	struct wlr_xdg_popup *wlr_popup = data;
	if (surface->popups == NULL) {
		return;
	}
	/* The scene tree goes with the popup's xdg_surface: nothing of ours to
	 * free. Where it goes on screen is settled at its initial commit
	 * (fw_layer_shell_popup_box). */
	struct wlr_scene_tree *tree =
			wlr_scene_xdg_surface_create(surface->popups, wlr_popup->base);
	if (tree == NULL) {
		wl_resource_post_no_memory(wlr_popup->resource);
		return;
	}
	/* Nested popups find their parent's tree here (xdg_shell.c). */
	wlr_popup->base->data = tree;
}

bool fw_layer_shell_popup_box(
		struct wlr_xdg_popup *popup, struct wlr_box *box) {
	struct fw_layer_surface *surface = layer_surface_of(popup->parent);
	if (surface == NULL || surface->output == NULL) {
		return false;
	}
	int lx, ly;
	wlr_scene_node_coords(&surface->tree->node, &lx, &ly);
	fw_output_box(surface->output, box);
	box->x -= lx;
	box->y -= ly;
	return true;
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct fw_layer_surface *surface =
			wl_container_of(listener, surface, destroy);
	fw_listener_disconnect(&surface->map);
	fw_listener_disconnect(&surface->unmap);
	fw_listener_disconnect(&surface->client_commit);
	fw_listener_disconnect(&surface->commit);
	fw_listener_disconnect(&surface->new_popup);
	fw_listener_disconnect(&surface->destroy);
	wl_list_remove(&surface->link);
	wlr_scene_node_destroy(&surface->tree->node);
	if (surface->popups != NULL) {
		wlr_scene_node_destroy(&surface->popups->node);
	}
	struct fw_output *output = surface->output;
	free(surface);
	if (output != NULL) {
		fw_layer_shell_arrange(output);
	}
}

void fw_layer_shell_close(struct wl_list *link) {
	struct fw_layer_surface *surface = wl_container_of(link, surface, link);
	/* Unhook from the output first: it is going away. */
	wl_list_remove(&surface->link);
	wl_list_init(&surface->link);
	surface->output = NULL;
	wlr_layer_surface_v1_destroy(surface->layer_surface);
}

static void handle_new_layer_surface(struct wl_listener *listener, void *data) {
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
	surface->tree = wlr_scene_subsurface_tree_create(
			server->layers[scene_layer(surface->layer)],
			layer_surface->surface);
	surface->popups = wlr_scene_tree_create(server->layers[FW_LAYER_POPUPS]);
	if (surface->tree == NULL || surface->popups == NULL) {
		if (surface->tree != NULL) {
			wlr_scene_node_destroy(&surface->tree->node);
		}
		if (surface->popups != NULL) {
			wlr_scene_node_destroy(&surface->popups->node);
		}
		free(surface);
		wlr_layer_surface_v1_destroy(layer_surface);
		return;
	}
	wlr_scene_node_set_enabled(&surface->tree->node, false);
	layer_surface->data = surface;

	fw_listener_connect(
			&surface->map, &layer_surface->surface->events.map, handle_map);
	fw_listener_connect(&surface->unmap, &layer_surface->surface->events.unmap,
			handle_unmap);
	fw_listener_connect(&surface->client_commit,
			&layer_surface->surface->events.client_commit,
			handle_client_commit);
	fw_listener_connect(&surface->commit,
			&layer_surface->surface->events.commit, handle_commit);
	fw_listener_connect(&surface->new_popup, &layer_surface->events.new_popup,
			handle_new_popup);
	fw_listener_connect(
			&surface->destroy, &layer_surface->events.destroy, handle_destroy);
	wl_list_insert(output->layer_surfaces.prev, &surface->link);
}

bool fw_layer_shell_init(struct fw_server *server) {
	server->layer_shell = wlr_layer_shell_v1_create(server->display, 4);
	if (server->layer_shell == NULL) {
		return false;
	}
	fw_listener_connect(&server->new_layer_surface,
			&server->layer_shell->events.new_surface, handle_new_layer_surface);
	return true;
}

void fw_layer_shell_finish(struct fw_server *server) {
	fw_listener_disconnect(&server->new_layer_surface);
}
