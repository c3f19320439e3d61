#include "compositor/buffer_release.h"
#include "compositor/server.h"
#include <stdlib.h>
#include <wlr/render/pixman.h>
#include <wlr/render/wlr_renderer.h>
#include <wlr/render/wlr_texture.h>
#include <wlr/types/wlr_buffer.h>
#include <wlr/types/wlr_compositor.h>
#include <wlr/types/wlr_surface.h>
#include <wlr/util/log.h>

/*
 * Under the pixman renderer, wlroots 0.15 makes a surface's texture by
 * wrapping the client's wl_shm buffer in place: the texture keeps the
 * buffer locked, so wl_buffer.release only goes out when the client's next
 * buffer replaces it. A client with two buffers that draws on every frame
 * callback then finds both busy ("Both buffers busy at redraw()"), and foot
 * warns that we hold its buffers. After each commit we copy the pixels into
 * a texture of our own and drop the one that pins the client's buffer, so
 * the release is sent during the commit itself, as with the GLES renderer.
 */
struct fw_surface_release {
	struct fw_server *server;
	struct wl_listener commit;
	struct wl_listener destroy;
};

static void detach_texture(
		struct fw_server *server, struct wlr_client_buffer *client_buffer) {
	struct wlr_buffer *source = client_buffer->source;
	struct wlr_texture *texture = client_buffer->texture;
	if (source == NULL || texture == NULL || !wlr_texture_is_pixman(texture)) {
		return;
	}
	void *data;
	uint32_t format;
	size_t stride;
	if (!wlr_buffer_begin_data_ptr_access(source,
				WLR_BUFFER_DATA_PTR_ACCESS_READ, &data, &format, &stride)) {
		/* Not a shm buffer: nothing of the client's is pinned by a copy. */
		return;
	}
	struct wlr_texture *copy =
			wlr_texture_from_pixels(server->renderer, format, (uint32_t)stride,
					(uint32_t)source->width, (uint32_t)source->height, data);
	wlr_buffer_end_data_ptr_access(source);
	if (copy == NULL) {
		wlr_log(WLR_ERROR, "Cannot copy a client buffer; keeping it locked");
		return;
	}
	client_buffer->texture = copy;
	/* Unlocks the client's buffer: wl_buffer.release goes out now. */
	wlr_texture_destroy(texture);
}

static void handle_commit(struct wl_listener *listener, void *data) {
	struct fw_surface_release *release =
			wl_container_of(listener, release, commit);
	struct wlr_surface *surface = data;
	/* Only a newly attached buffer is still pinned; an older one may be
	 * the client's to draw in again already. */
	if ((surface->current.committed & WLR_SURFACE_STATE_BUFFER) != 0 &&
			surface->buffer != NULL) {
		detach_texture(release->server, surface->buffer);
	}
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct fw_surface_release *release =
			wl_container_of(listener, release, destroy);
	wl_list_remove(&release->commit.link);
	wl_list_remove(&release->destroy.link);
	free(release);
}

static void handle_new_surface(struct wl_listener *listener, void *data) {
	struct fw_server *server = wl_container_of(listener, server, new_surface);
	struct wlr_surface *surface = data;
	struct fw_surface_release *release = calloc(1, sizeof(*release));
	if (release == NULL) {
		return;
	}
	release->server = server;
	/* Ahead of every other commit listener, so all of them see the copy. */
	release->commit.notify = handle_commit;
	wl_list_insert(
			&surface->events.commit.listener_list, &release->commit.link);
	release->destroy.notify = handle_destroy;
	wl_signal_add(&surface->events.destroy, &release->destroy);
}

void fw_buffer_release_init(struct fw_server *server) {
	server->new_surface.notify = handle_new_surface;
	wl_signal_add(
			&server->compositor->events.new_surface, &server->new_surface);
}

void fw_buffer_release_finish(struct fw_server *server) {
	if (server->new_surface.link.next != NULL) {
		wl_list_remove(&server->new_surface.link);
	}
}
