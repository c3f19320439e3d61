/*
 * wlcs skips the tests of extensions a compositor does not list. The list
 * is read from the server itself, as any client reads it, so that it says
 * what fairway really advertises, with the versions it advertises.
 */
#include "tests/wlcs/wlcs_module.h"
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <wayland-client.h>

/* Turns of the server's loop before the listing gives up. */
#define MAX_PUMPS 500

struct listing {
	struct fw_wlcs_extensions *extensions;
	bool failed;
	bool done;
};

static void add_global(
		struct listing *listing, const char *name, uint32_t version) {
	struct fw_wlcs_extensions *ext = listing->extensions;
	for (size_t i = 0; i < ext->count; i++) {
		if (strcmp(ext->list[i].name, name) == 0) {
			if (version > ext->list[i].version) {
				ext->list[i].version = version;
			}
			return;
		}
	}
	WlcsExtensionDescriptor *list =
			realloc(ext->list, (ext->count + 1) * sizeof(*list));
	char *copy = strdup(name);
	if (list == NULL || copy == NULL) {
		free(copy);
		if (list != NULL) {
			ext->list = list;
		}
		listing->failed = true;
		return;
	}
	ext->list = list;
	ext->list[ext->count++] = (WlcsExtensionDescriptor){copy, version};
}

static void handle_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	add_global(data, interface, version);
}

static void handle_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_global,
		.global_remove = handle_global_remove,
};

static void handle_done(
		void *data, struct wl_callback *callback, uint32_t serial) {
	struct listing *listing = data;
	listing->done = true;
}

static const struct wl_callback_listener done_listener = {
		.done = handle_done,
};

/* Whatever the server sent so far, without waiting. */
static bool read_events(struct wl_display *display) {
	while (wl_display_prepare_read(display) != 0) {
		if (wl_display_dispatch_pending(display) < 0) {
			return false;
		}
	}
	struct pollfd pfd = {.fd = wl_display_get_fd(display), .events = POLLIN};
	if (poll(&pfd, 1, 0) > 0) {
		if (wl_display_read_events(display) < 0) {
			return false;
		}
	} else {
		wl_display_cancel_read(display);
	}
	return wl_display_dispatch_pending(display) >= 0;
}

bool fw_wlcs_list_globals(struct fw_wlcs_extensions *extensions, int fd,
		void (*pump)(void *data), void *data) {
	struct wl_display *display = wl_display_connect_to_fd(fd);
	if (display == NULL) {
		close(fd);
		return false;
	}
	struct listing listing = {.extensions = extensions};
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &listing);
	struct wl_callback *callback = wl_display_sync(display);
	wl_callback_add_listener(callback, &done_listener, &listing);
	for (int i = 0; i < MAX_PUMPS && !listing.done; i++) {
		if (wl_display_flush(display) < 0) {
			break;
		}
		pump(data);
		if (!read_events(display)) {
			break;
		}
	}
	wl_callback_destroy(callback);
	wl_registry_destroy(registry);
	wl_display_disconnect(display);
	return listing.done && !listing.failed;
}

void fw_wlcs_extensions_finish(struct fw_wlcs_extensions *extensions) {
	for (size_t i = 0; i < extensions->count; i++) {
		free((char *)extensions->list[i].name);
	}
	free(extensions->list);
	extensions->list = NULL;
	extensions->count = 0;
}
