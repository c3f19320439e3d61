/*
 * Makes a sandbox the way Flatpak 1.15.6 and later do: a listening socket
 * handed to the compositor through wp_security_context_v1, with a sandbox
 * engine, an app id and an instance id. Prints "listening" once the
 * compositor took it, then holds it open until stdin closes; the clients
 * that connect to SOCKET are the sandbox's.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <wayland-client.h>

#include "security-context-v1-client-protocol.h"

static void handle_global(void *data, struct wl_registry *registry,
		uint32_t name, const char *interface, uint32_t version) {
	struct wp_security_context_manager_v1 **manager = data;
	if (strcmp(interface, wp_security_context_manager_v1_interface.name) == 0) {
		*manager = wl_registry_bind(
				registry, name, &wp_security_context_manager_v1_interface, 1);
	}
}

static void handle_global_remove(
		void *data, struct wl_registry *registry, uint32_t name) {
	// The manager stays for the compositor's life.
}

static const struct wl_registry_listener registry_listener = {
		.global = handle_global,
		.global_remove = handle_global_remove,
};

/* A socket listening at path, or -1. */
static int listen_at(const char *path) {
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	if (strlen(path) >= sizeof(addr.sun_path)) {
		fprintf(stderr, "fw-test-sandbox: %s: path too long\n", path);
		return -1;
	}
	strcpy(addr.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0 || bind(fd, (struct sockaddr *)&addr, sizeof(addr)) != 0 ||
			listen(fd, 16) != 0) {
		fprintf(stderr, "fw-test-sandbox: %s: %s\n", path, strerror(errno));
		if (fd >= 0) {
			close(fd);
		}
		return -1;
	}
	return fd;
}

static const char usage[] =
		"usage: fw-test-sandbox SOCKET ENGINE APP_ID\n"
		"Listens at SOCKET for a sandbox of ENGINE and APP_ID made through\n"
		"wp_security_context_v1; prints \"listening\", or \"no manager\" and\n"
		"exits 3 where the compositor does not offer it.\n";

int main(int argc, char *argv[]) {
	if (argc != 4) {
		fputs(usage, stderr);
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	struct wl_display *display = wl_display_connect(NULL);
	if (display == NULL) {
		fprintf(stderr, "fw-test-sandbox: cannot connect to the compositor\n");
		return 1;
	}
	struct wp_security_context_manager_v1 *manager = NULL;
	struct wl_registry *registry = wl_display_get_registry(display);
	wl_registry_add_listener(registry, &registry_listener, &manager);
	if (wl_display_roundtrip(display) < 0) {
		fprintf(stderr, "fw-test-sandbox: the registry failed\n");
		return 1;
	}
	if (manager == NULL) {
		printf("no manager\n");
		return 3;
	}
	int listen_fd = listen_at(argv[1]);
	int close_fds[2];
	if (listen_fd < 0 || pipe2(close_fds, O_CLOEXEC) != 0) {
		return 1;
	}
	struct wp_security_context_v1 *context =
			wp_security_context_manager_v1_create_listener(
					manager, listen_fd, close_fds[0]);
	wp_security_context_v1_set_sandbox_engine(context, argv[2]);
	wp_security_context_v1_set_app_id(context, argv[3]);
	wp_security_context_v1_set_instance_id(context, "fw-test-instance");
	wp_security_context_v1_commit(context);
	wp_security_context_v1_destroy(context);
	/* The compositor has both fds now; it stops when close_fds[1] goes. */
	close(listen_fd);
	close(close_fds[0]);
	if (wl_display_roundtrip(display) < 0) {
		fprintf(stderr, "fw-test-sandbox: the compositor refused: %s\n",
				strerror(wl_display_get_error(display)));
		return 1;
	}
	printf("listening\n");
	for (;;) {
		char byte;
		ssize_t n = read(STDIN_FILENO, &byte, 1);
		if (n == 0 || (n < 0 && errno != EINTR)) {
			break;
		}
	}
	close(close_fds[1]);
	wl_display_disconnect(display);
	return 0;
}
