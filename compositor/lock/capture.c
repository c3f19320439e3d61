#include "compositor/lock/capture.h"
#include "compositor/listener.h"
#include "compositor/lock/lock.h"
#include "compositor/server.h"
#include <stdlib.h>
#include <unistd.h>
#include <wlr/types/wlr_data_device.h>
#include <wlr/types/wlr_export_dmabuf_v1.h>
#include <wlr/types/wlr_primary_selection.h>
#include <wlr/types/wlr_screencopy_v1.h>
#include <wlr/types/wlr_seat.h>
#include <wlr/util/log.h>

/*
 * The events sent here, by their opcodes, in the order the protocols
 * define them: wlr-screencopy-unstable-v1's zwlr_screencopy_frame_v1.failed
 * (after buffer, flags, ready), wlr-export-dmabuf-unstable-v1's
 * zwlr_export_dmabuf_frame_v1.cancel (after frame, object, ready) and its
 * cancel_reason temporary. wlroots does not install their headers.
 */
#define SCREENCOPY_FRAME_FAILED 3
#define EXPORT_DMABUF_FRAME_CANCEL 3
#define EXPORT_DMABUF_CANCEL_TEMPORARY 0

struct fw_capture {
	struct fw_server *server;
	struct wlr_screencopy_manager_v1 *screencopy;
	struct wlr_export_dmabuf_manager_v1 *export_dmabuf;
	bool locked;
	struct wl_list hidden; /* hidden_source.link */
	struct wl_listener set_selection;
	struct wl_listener set_primary_selection;
};

/*
 * A selection source whose send serves nothing while locked: its impl is
 * swapped for one that closes the reader's fd, and given back at the
 * unlock, or when the source goes (its destroy signal comes before its
 * impl's destroy, which is then the source's own).
 */
struct hidden_source {
	struct wlr_data_source *source; /* one of these two */
	struct wlr_primary_selection_source *primary;
	const struct wlr_data_source_impl *impl;
	const struct wlr_primary_selection_source_impl *primary_impl;
	struct wl_listener destroy;
	struct wl_list link; /* fw_capture.hidden */
};

/* The hidden sources of the one compositor, for the swapped impls. */
static struct wl_list *hidden_sources;

static struct hidden_source *find_hidden(const void *source) {
	struct hidden_source *hidden;
	wl_list_for_each(hidden, hidden_sources, link) {
		if ((const void *)hidden->source == source ||
				(const void *)hidden->primary == source) {
			return hidden;
		}
	}
	return NULL;
}

static void hidden_send(
		struct wlr_data_source *source, const char *mime_type, int32_t fd) {
	close(fd); /* the reader gets nothing, at once */
}

static void hidden_accept(
		struct wlr_data_source *source, uint32_t serial, const char *mime) {
	struct hidden_source *hidden = find_hidden(source);
	if (hidden != NULL && hidden->impl->accept != NULL) {
		hidden->impl->accept(source, serial, mime);
	}
}

static void hidden_destroy(struct wlr_data_source *source) {
	struct hidden_source *hidden = find_hidden(source);
	if (hidden != NULL && hidden->impl->destroy != NULL) {
		hidden->impl->destroy(source);
	}
}

static void hidden_dnd_drop(struct wlr_data_source *source) {
	struct hidden_source *hidden = find_hidden(source);
	if (hidden != NULL && hidden->impl->dnd_drop != NULL) {
		hidden->impl->dnd_drop(source);
	}
}

static void hidden_dnd_finish(struct wlr_data_source *source) {
	struct hidden_source *hidden = find_hidden(source);
	if (hidden != NULL && hidden->impl->dnd_finish != NULL) {
		hidden->impl->dnd_finish(source);
	}
}

static void hidden_dnd_action(struct wlr_data_source *source,
		enum wl_data_device_manager_dnd_action action) {
	struct hidden_source *hidden = find_hidden(source);
	if (hidden != NULL && hidden->impl->dnd_action != NULL) {
		hidden->impl->dnd_action(source, action);
	}
}

static const struct wlr_data_source_impl hidden_impl = {
		.send = hidden_send,
		.accept = hidden_accept,
		.destroy = hidden_destroy,
		.dnd_drop = hidden_dnd_drop,
		.dnd_finish = hidden_dnd_finish,
		.dnd_action = hidden_dnd_action,
};

static void hidden_primary_send(struct wlr_primary_selection_source *source,
		const char *mime_type, int fd) {
	close(fd);
}

static void hidden_primary_destroy(
		struct wlr_primary_selection_source *source) {
	struct hidden_source *hidden = find_hidden(source);
	if (hidden != NULL && hidden->primary_impl->destroy != NULL) {
		hidden->primary_impl->destroy(source);
	}
}

static const struct wlr_primary_selection_source_impl hidden_primary_impl = {
		.send = hidden_primary_send,
		.destroy = hidden_primary_destroy,
};

/* Gives the source its own impl back and forgets it. */
static void reveal(struct hidden_source *hidden) {
	if (hidden->source != NULL) {
		hidden->source->impl = hidden->impl;
	} else {
		hidden->primary->impl = hidden->primary_impl;
	}
	fw_listener_disconnect(&hidden->destroy);
	wl_list_remove(&hidden->link);
	free(hidden);
}

static void handle_hidden_destroy(struct wl_listener *listener, void *data) {
	struct hidden_source *hidden = wl_container_of(listener, hidden, destroy);
	reveal(hidden);
}

static void hide(struct fw_capture *capture, struct wlr_data_source *source,
		struct wlr_primary_selection_source *primary) {
	if ((source == NULL && primary == NULL) ||
			find_hidden(source != NULL ? (void *)source : (void *)primary)) {
		return;
	}
	struct hidden_source *hidden = calloc(1, sizeof(*hidden));
	if (hidden == NULL) {
		wlr_log(WLR_ERROR, "Out of memory: the selection stays readable");
		return;
	}
	hidden->source = source;
	hidden->primary = primary;
	if (source != NULL) {
		hidden->impl = source->impl;
		source->impl = &hidden_impl;
		fw_listener_connect(&hidden->destroy, &source->events.destroy,
				handle_hidden_destroy);
	} else {
		hidden->primary_impl = primary->impl;
		primary->impl = &hidden_primary_impl;
		fw_listener_connect(&hidden->destroy, &primary->events.destroy,
				handle_hidden_destroy);
	}
	wl_list_insert(&capture->hidden, &hidden->link);
}

/* A selection set while locked is hidden too. */
static void handle_set_selection(struct wl_listener *listener, void *data) {
	struct fw_capture *capture =
			wl_container_of(listener, capture, set_selection);
	if (capture->locked) {
		hide(capture, capture->server->seat->selection_source, NULL);
	}
}

static void handle_set_primary_selection(
		struct wl_listener *listener, void *data) {
	struct fw_capture *capture =
			wl_container_of(listener, capture, set_primary_selection);
	if (capture->locked) {
		hide(capture, NULL, capture->server->seat->primary_selection_source);
	}
}

struct fw_capture *fw_capture_create(struct fw_server *server,
		struct wlr_screencopy_manager_v1 *screencopy,
		struct wlr_export_dmabuf_manager_v1 *export_dmabuf) {
	struct fw_capture *capture = calloc(1, sizeof(*capture));
	if (capture == NULL) {
		return NULL;
	}
	capture->server = server;
	capture->screencopy = screencopy;
	capture->export_dmabuf = export_dmabuf;
	wl_list_init(&capture->hidden);
	hidden_sources = &capture->hidden;
	fw_listener_connect(&capture->set_selection,
			&server->seat->events.set_selection, handle_set_selection);
	fw_listener_connect(&capture->set_primary_selection,
			&server->seat->events.set_primary_selection,
			handle_set_primary_selection);
	return capture;
}

void fw_capture_destroy(struct fw_capture *capture) {
	if (capture == NULL) {
		return;
	}
	fw_capture_unlock(capture);
	fw_listener_disconnect(&capture->set_selection);
	fw_listener_disconnect(&capture->set_primary_selection);
	hidden_sources = NULL;
	free(capture);
}

void fw_capture_lock(struct fw_capture *capture) {
	if (capture == NULL || capture->locked) {
		return;
	}
	capture->locked = true;
	struct wlr_seat *seat = capture->server->seat;
	hide(capture, seat->selection_source, NULL);
	hide(capture, NULL, seat->primary_selection_source);
}

void fw_capture_unlock(struct fw_capture *capture) {
	if (capture == NULL) {
		return;
	}
	capture->locked = false;
	struct hidden_source *hidden, *tmp;
	wl_list_for_each_safe(hidden, tmp, &capture->hidden, link) {
		reveal(hidden);
	}
}

/* Whether a listener is on a signal's list (not unlinked by us). */
static bool listening(const struct wl_listener *listener) {
	return listener->link.next != NULL && !wl_list_empty(&listener->link);
}

bool fw_capture_output_waiting(
		struct fw_capture *capture, struct wlr_output *output) {
	if (capture == NULL) {
		return false;
	}
	struct wlr_screencopy_frame_v1 *frame;
	wl_list_for_each(frame, &capture->screencopy->frames, link) {
		if (frame->output == output && listening(&frame->output_commit)) {
			return true;
		}
	}
	struct wlr_export_dmabuf_frame_v1 *exported;
	wl_list_for_each(exported, &capture->export_dmabuf->frames, link) {
		if (exported->output == output && listening(&exported->output_commit)) {
			return true;
		}
	}
	return false;
}

void fw_capture_output_precommit(
		struct fw_capture *capture, struct wlr_output *output) {
	if (capture == NULL || capture->server->config.screenshots_while_locked) {
		return;
	}
	/*
	 * A frame with a buffer to fill listens to the output's commit; it
	 * is failed here, before that, and stops listening, so wlroots never
	 * fills it. The client destroys it, as after any failure.
	 */
	struct wlr_screencopy_frame_v1 *frame;
	wl_list_for_each(frame, &capture->screencopy->frames, link) {
		if (frame->output == output && frame->buffer != NULL &&
				listening(&frame->output_commit)) {
			wl_list_remove(&frame->output_commit.link);
			wl_list_init(&frame->output_commit.link);
			wl_resource_post_event(frame->resource, SCREENCOPY_FRAME_FAILED);
		}
	}
	struct wlr_export_dmabuf_frame_v1 *exported;
	wl_list_for_each(exported, &capture->export_dmabuf->frames, link) {
		if (exported->output == output && listening(&exported->output_commit)) {
			wl_list_remove(&exported->output_commit.link);
			wl_list_init(&exported->output_commit.link);
			wl_resource_post_event(exported->resource,
					EXPORT_DMABUF_FRAME_CANCEL, EXPORT_DMABUF_CANCEL_TEMPORARY);
		}
	}
}
