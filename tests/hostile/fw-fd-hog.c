/*
 * Clients that try to make the compositor hold fds, and one that checks
 * the compositor still serves everyone meanwhile:
 *
 *   fw-fd-hog keyboards N   binds the seat, makes N wl_keyboards, prints
 *                           "holding N" and never reads again: every keymap
 *                           the seat sends comes with an fd per keyboard.
 *   fw-fd-hog dribble       one 4096-byte request sent a byte at a time,
 *                           each byte with 28 fds; prints how far it got.
 *   fw-fd-hog roundtrips S  wl_display.sync roundtrips for S seconds;
 *                           fails if one takes over 5 s or the connection
 *                           breaks; prints the count and the slowest.
 */
#include "tests/common/raw_wire.h"
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>

static double now_s(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

struct hog {
	struct wl_seat *seat;
};

static void handle_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct hog *hog = data;
	if (strcmp(interface, wl_seat_interface.name) == 0 && hog->seat == NULL) {
		hog->seat = wl_registry_bind(registry, name, &wl_seat_interface, 1);
	}
}

static void handle_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_global,
		.global_remove = handle_global_remove,
};

static int keyboards(int count) {
	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		fprintf(stderr, "fw-fd-hog: cannot connect\n");
		return 1;
	}
	struct hog hog = {0};
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &hog);
	wl_display_roundtrip(display);
	if (hog.seat == NULL) {
		fprintf(stderr, "fw-fd-hog: no seat\n");
		return 1;
	}
	int fd = wl_display_get_fd(display);
	for (int i = 0; i < count; i++) {
		wl_seat_get_keyboard(hog.seat);
		while (wl_display_flush(display) < 0 && errno == EAGAIN) {
			struct pollfd pfd = {.fd = fd, .events = POLLOUT};
			poll(&pfd, 1, 1000);
		}
	}
	/* Until the requests are in; what they are answered is never read. */
	while (wl_display_flush(display) < 0 && errno == EAGAIN) {
		struct pollfd pfd = {.fd = fd, .events = POLLOUT};
		poll(&pfd, 1, 1000);
	}
	printf("holding %d\n", count);
	fflush(stdout);
	for (;;) {
		pause();
	}
}

/* 28 fds with each byte of one 4096-byte request, as slowly as it takes. */
static int dribble(void) {
	const char *dir = getenv("XDG_RUNTIME_DIR");
	const char *name = getenv("WAYLAND_DISPLAY");
	char path[108];
	snprintf(path, sizeof(path), "%s/%s", dir ? dir : "", name ? name : "");
	int fd = raw_wire_connect(path);
	if (fd < 0) {
		perror("fw-fd-hog: connect");
		return 1;
	}
	int fds[28];
	for (int i = 0; i < 28; i++) {
		fds[i] = open("/dev/null", O_RDONLY | O_CLOEXEC);
		if (fds[i] < 0) {
			return 1;
		}
	}
	uint8_t message[4096] = {0};
	raw_wire_header((uint32_t *)message, 1, sizeof(message), 0);
	size_t sent = 0;
	for (; sent < sizeof(message); sent++) {
		if (raw_wire_send(fd, message + sent, 1, fds, 28) != 1) {
			break;
		}
	}
	/* Dropped: the compositor hangs up. */
	struct pollfd pfd = {.fd = fd, .events = POLLIN};
	char buf[256];
	while (poll(&pfd, 1, 30000) == 1 && read(fd, buf, sizeof(buf)) > 0) {
	}
	printf("sent %zu bytes with %zu fds\n", sent, sent * 28);
	return 0;
}

static int roundtrips(double seconds) {
	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		fprintf(stderr, "fw-fd-hog: cannot connect\n");
		return 1;
	}
	double end = now_s() + seconds, slowest = 0;
	long count = 0;
	while (now_s() < end) {
		double start = now_s();
		if (wl_display_roundtrip(display) < 0) {
			fprintf(stderr, "fw-fd-hog: roundtrip %ld failed: %s\n", count,
					strerror(errno));
			return 1;
		}
		double took = now_s() - start;
		slowest = took > slowest ? took : slowest;
		count++;
		usleep(10000);
	}
	printf("roundtrips %ld slowest %.3f s\n", count, slowest);
	wl_display_disconnect(display);
	return slowest < 5 ? 0 : 1;
}

int main(int argc, char *argv[]) {
	if (argc == 3 && strcmp(argv[1], "keyboards") == 0) {
		return keyboards(atoi(argv[2]));
	}
	if (argc == 2 && strcmp(argv[1], "dribble") == 0) {
		return dribble();
	}
	if (argc == 3 && strcmp(argv[1], "roundtrips") == 0) {
		return roundtrips(atof(argv[2]));
	}
	fprintf(stderr,
			"usage: fw-fd-hog keyboards N | dribble | "
			"roundtrips SECONDS\n");
	return 2;
}
