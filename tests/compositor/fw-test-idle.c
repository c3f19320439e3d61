/*
 * Watches for idleness the way an idle daemon does, with ext-idle-notify-v1
 * or, with --kde, the KDE idle protocol (org_kde_kwin_idle), and prints
 * "idle" and "resumed" as they come, one a line, for the tests to wait on.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "ext-idle-notify-v1-client-protocol.h"
#include "kde-idle-client-protocol.h"

struct watcher {
	struct wl_seat *seat;
	struct ext_idle_notifier_v1 *notifier;
	struct org_kde_kwin_idle *kde_idle;
};

static void handle_idled(
		void *data, struct ext_idle_notification_v1 *notification) {
	printf("idle\n");
}

static void handle_resumed(
		void *data, struct ext_idle_notification_v1 *notification) {
	printf("resumed\n");
}

static const struct ext_idle_notification_v1_listener notification_listener = {
		.idled = handle_idled,
		.resumed = handle_resumed,
};

static void handle_kde_idle(
		void *data, struct org_kde_kwin_idle_timeout *timeout) {
	printf("idle\n");
}

static void handle_kde_resumed(
		void *data, struct org_kde_kwin_idle_timeout *timeout) {
	printf("resumed\n");
}

static const struct org_kde_kwin_idle_timeout_listener kde_timeout_listener = {
		.idle = handle_kde_idle,
		.resumed = handle_kde_resumed,
};

static void handle_registry_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct watcher *watcher = data;
	if (strcmp(interface, wl_seat_interface.name) == 0 &&
			watcher->seat == NULL) {
		watcher->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
	} else if (strcmp(interface, ext_idle_notifier_v1_interface.name) == 0) {
		watcher->notifier = wl_registry_bind(
				registry, name, &ext_idle_notifier_v1_interface, 1);
	} else if (strcmp(interface, org_kde_kwin_idle_interface.name) == 0) {
		watcher->kde_idle = wl_registry_bind(
				registry, name, &org_kde_kwin_idle_interface, 1);
	}
}

static void handle_registry_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
	// The globals watched here stay for the compositor's life.
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_registry_global,
		.global_remove = handle_registry_global_remove,
};

static const char usage[] =
		"usage: fw-test-idle [--kde] TIMEOUT_MS\n"
		"Prints idle and resumed, one a line, as the compositor reports them\n"
		"through ext-idle-notify-v1, or with --kde org_kde_kwin_idle.\n";

int main(int argc, char *argv[]) {
	bool kde = false;
	int arg = 1;
	if (arg < argc && strcmp(argv[arg], "--kde") == 0) {
		kde = true;
		arg++;
	}
	char *end = NULL;
	unsigned long timeout = arg + 1 == argc ? strtoul(argv[arg], &end, 10) : 0;
	if (end == NULL || *end != '\0' || end == argv[arg] ||
			timeout > 0x7fffffff) {
		fputs(usage, stderr);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	struct watcher watcher = {0};
	struct ext_idle_notification_v1 *notification = NULL;
	struct org_kde_kwin_idle_timeout *kde_timeout = NULL;
	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		fprintf(stderr, "fw-test-idle: cannot connect to the compositor\n");
		return 1;
	}
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &watcher);
	int status = 1;
	if (wl_display_roundtrip(display) < 0) {
		fprintf(stderr, "fw-test-idle: roundtrip failed\n");
		goto out;
	}
	if (watcher.seat == NULL ||
			(kde ? watcher.kde_idle == NULL : watcher.notifier == NULL)) {
		fprintf(stderr, "fw-test-idle: the compositor lacks %s or wl_seat\n",
				kde ? "org_kde_kwin_idle" : "ext_idle_notifier_v1");
		goto out;
	}
	if (kde) {
		kde_timeout = org_kde_kwin_idle_get_idle_timeout(
				watcher.kde_idle, watcher.seat, (uint32_t)timeout);
		org_kde_kwin_idle_timeout_add_listener(
				kde_timeout, &kde_timeout_listener, NULL);
	} else {
		notification = ext_idle_notifier_v1_get_idle_notification(
				watcher.notifier, (uint32_t)timeout, watcher.seat);
		ext_idle_notification_v1_add_listener(
				notification, &notification_listener, NULL);
	}
	printf("watching\n");
	while (wl_display_dispatch(display) >= 0) {
		// Runs until the compositor goes or a signal ends it.
	}
	fprintf(stderr, "fw-test-idle: lost the compositor (error %d)\n",
			wl_display_get_error(display));
out:
	if (notification != NULL) {
		ext_idle_notification_v1_destroy(notification);
	}
	if (kde_timeout != NULL) {
		org_kde_kwin_idle_timeout_release(kde_timeout);
	}
	if (watcher.notifier != NULL) {
		ext_idle_notifier_v1_destroy(watcher.notifier);
	}
	if (watcher.kde_idle != NULL) {
		org_kde_kwin_idle_destroy(watcher.kde_idle);
	}
	if (watcher.seat != NULL) {
		wl_seat_destroy(watcher.seat);
	}
	wl_registry_destroy(registry);
	wl_display_disconnect(display);
	return status;
}
