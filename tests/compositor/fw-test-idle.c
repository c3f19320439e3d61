/*
 * Watches for idleness the way an idle daemon does, with ext-idle-notify-v1,
 * and prints "idle" and "resumed" as they come, one a line, for the tests to
 * wait on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wayland-client.h>

#include "ext-idle-notify-v1-client-protocol.h"

struct watcher {
	struct wl_seat *seat;
	struct ext_idle_notifier_v1 *notifier;
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

static void handle_registry_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct watcher *watcher = data;
	if (strcmp(interface, wl_seat_interface.name) == 0 &&
			watcher->seat == NULL) {
		watcher->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
	} else if (strcmp(interface, ext_idle_notifier_v1_interface.name) == 0) {
		watcher->notifier = wl_registry_bind(
				registry, name, &ext_idle_notifier_v1_interface, 1);
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
		"usage: fw-test-idle TIMEOUT_MS\n"
		"Prints idle and resumed, one a line, as the compositor reports them\n"
		"through ext-idle-notify-v1.\n";

int main(int argc, char *argv[]) {
	char *end = NULL;
	unsigned long timeout = argc == 2 ? strtoul(argv[1], &end, 10) : 0;
	if (end == NULL || *end != '\0' || end == argv[1] || timeout > 0x7fffffff) {
		fputs(usage, stderr);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);

	struct watcher watcher = {0};
	struct ext_idle_notification_v1 *notification = NULL;
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
	if (watcher.seat == NULL || watcher.notifier == NULL) {
		fprintf(stderr,
				"fw-test-idle: the compositor lacks ext_idle_notifier_v1 or "
				"wl_seat\n");
		goto out;
	}
	notification = ext_idle_notifier_v1_get_idle_notification(
			watcher.notifier, (uint32_t)timeout, watcher.seat);
	ext_idle_notification_v1_add_listener(
			notification, &notification_listener, NULL);
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
	if (watcher.notifier != NULL) {
		ext_idle_notifier_v1_destroy(watcher.notifier);
	}
	if (watcher.seat != NULL) {
		wl_seat_destroy(watcher.seat);
	}
	wl_registry_destroy(registry);
	wl_display_disconnect(display);
	return status;
}
