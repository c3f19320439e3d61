#include "compositor/sched/client.h"
#include "compositor/listener.h"
#include "compositor/sched/client_create.h"
#include "scheduler/gate/gate.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <wlr/types/wlr_security_context_v1.h>
#include <wlr/util/log.h>

void fw_client_process_read(struct fw_client_process *process, pid_t pid) {
	fw_client_process_finish(process);
	process->pid = pid;
	if (pid <= 0) {
		return;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	FILE *file = fopen(path, "re");
	if (file != NULL) {
		if (fgets(process->comm, sizeof(process->comm), file) != NULL) {
			process->comm[strcspn(process->comm, "\n")] = '\0';
		} else {
			process->comm[0] = '\0';
		}
		fclose(file);
	}
	char target[PATH_MAX];
	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	ssize_t len = readlink(path, target, sizeof(target) - 1);
	if (len > 0) {
		target[len] = '\0';
		/* An executable replaced since it started reads "... (deleted)". */
		const char *deleted = " (deleted)";
		size_t tail = strlen(deleted);
		if ((size_t)len > tail && strcmp(target + len - tail, deleted) == 0) {
			target[len - tail] = '\0';
		}
		const char *base = strrchr(target, '/');
		base = base != NULL ? base + 1 : target;
		size_t n = strnlen(base, sizeof(process->exe) - 1);
		memcpy(process->exe, base, n);
		process->exe[n] = '\0';
		process->path = strdup(target);
	}
}

void fw_client_process_finish(struct fw_client_process *process) {
	free(process->path);
	*process = (struct fw_client_process){0};
}

bool fw_client_identify(struct fw_client *client) {
	if (client->known) {
		return true;
	}
	pid_t pid = 0;
	uid_t uid = (uid_t)-1;
	struct gate *gate = client->list->gate;
	if (gate != NULL) {
		struct gate_connection *conn =
				gate_connection_from_client(client->wl_client);
		if (conn != NULL && !gate_connection_get_process(conn, &pid, &uid)) {
			return false;
		}
	} else if (client->peer.pidfd >= 0) {
		/* Its socket's peer; Xwayland's is fairway, which made it. */
		pid = client->peer.pid;
		uid = client->peer.uid;
	}
	client->known = true;
	client->uid = uid;
	fw_client_process_read(&client->process, pid);
	return true;
}

int fw_client_dup_pidfd(const struct fw_client *client) {
	if (!client->known || client->process.pid <= 0) {
		return -1;
	}
	if (client->list->gate == NULL) {
		return peer_dup_pidfd(&client->peer);
	}
	struct gate_connection *conn =
			gate_connection_from_client(client->wl_client);
	return conn != NULL ? gate_connection_dup_pidfd(conn) : -1;
}

/* Whether the process a pidfd names still runs (or is a zombie). */
static bool pidfd_alive(int pidfd) {
	return syscall(SYS_pidfd_send_signal, pidfd, 0, NULL, 0) == 0 ||
			errno == EPERM;
}

/*
 * Flatpak puts /.flatpak-info in the root of every sandboxed process; it
 * is read through /proc/PID/root, the process's own root. What cannot be
 * read (another user's process, gone, or not known) counts as sandboxed:
 * privileged globals are given only to what is known not to be; root's
 * processes excepted, which could do all those globals do without them.
 */
static bool read_sandboxed(struct fw_client *client) {
	if (client->xwayland) {
		return false; /* fairway's own child */
	}
	if (!fw_client_identify(client) || client->process.pid <= 0) {
		return true;
	}
	int pidfd = fw_client_dup_pidfd(client);
	if (pidfd < 0) {
		/* Nothing pins the process its pid would name. */
		return true;
	}
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/root", (int)client->process.pid);
	int root = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (root < 0 && (errno == EACCES || errno == EPERM) && client->uid == 0) {
		/* Root's, that fairway may not look into: root needs no
		 * privileged global to do what they allow (if it was still the
		 * client's process that refused). */
		bool gone = !pidfd_alive(pidfd);
		close(pidfd);
		return gone;
	}
	bool sandboxed = root < 0 ||
			faccessat(root, ".flatpak-info", F_OK, AT_SYMLINK_NOFOLLOW) == 0 ||
			errno != ENOENT;
	if (root >= 0) {
		close(root);
	}
	/* Checked last: the root read above was this process's. */
	sandboxed = sandboxed || !pidfd_alive(pidfd);
	close(pidfd);
	return sandboxed;
}

const struct wlr_security_context_v1_state *fw_client_security_context(
		const struct fw_client *client) {
	struct wlr_security_context_manager_v1 *manager =
			client != NULL ? client->list->security_context : NULL;
	return manager != NULL ? wlr_security_context_manager_v1_lookup_client(
									 manager, client->wl_client)
						   : NULL;
}

bool fw_client_sandboxed(struct fw_client *client) {
	if (client == NULL) {
		return true;
	}
	/* Asked each time: wlroots ties the context to the client only once
	 * wl_client_create returned, after the record was made. */
	if (fw_client_security_context(client) != NULL) {
		return true;
	}
	if (!client->sandbox_known && client->known) {
		client->sandboxed = read_sandboxed(client);
		client->sandbox_known = true;
	}
	return client->sandbox_known ? client->sandboxed : read_sandboxed(client);
}

static void handle_identify(void *data) {
	struct fw_client *client = data;
	client->identify = NULL;
	fw_client_identify(client);
	wl_signal_emit(&client->list->events.identified, client);
}

static void handle_destroy(struct wl_listener *listener, void *data) {
	struct fw_client *client = wl_container_of(listener, client, destroy);
	struct fw_client_list *list = client->list;
	wl_signal_emit(&list->events.destroy, client);
	if (client->identify != NULL) {
		wl_event_source_remove(client->identify);
	}
	if (list->xwayland == client) {
		list->xwayland = NULL;
	}
	fw_listener_disconnect(&client->destroy);
	wl_list_remove(&client->link);
	fw_client_process_finish(&client->process);
	peer_finish(&client->peer);
	free(client);
}

struct fw_client *fw_client_get(struct wl_client *wl_client) {
	struct wl_listener *listener =
			wl_client_get_destroy_listener(wl_client, handle_destroy);
	if (listener == NULL) {
		return NULL;
	}
	struct fw_client *client = wl_container_of(listener, client, destroy);
	return client;
}

bool fw_client_is_xwayland(struct wl_client *wl_client) {
	struct fw_client *client =
			wl_client != NULL ? fw_client_get(wl_client) : NULL;
	return client != NULL && client->xwayland;
}

static void handle_client_created(struct wl_listener *listener, void *data) {
	struct fw_client_list *list =
			wl_container_of(listener, list, client_created);
	struct wl_client *wl_client = data;
	struct fw_client *client = calloc(1, sizeof(*client));
	if (client == NULL) {
		wlr_log(WLR_ERROR, "Out of memory for a client's record");
		return;
	}
	client->wl_client = wl_client;
	client->list = list;
	client->xwayland = fw_client_create_by_hand();
	if (!fw_client_create_take_peer(&client->peer) && list->gate == NULL) {
		/*
		 * With the gate off, a client that fairway's wl_client_create
		 * did not see pinned (one a module makes through libwayland's
		 * own, as wlcs's are) is pinned from its socket here, still
		 * within its creation: its peer, or fairway itself for a
		 * socketpair fairway made.
		 */
		int fd = wl_client_get_fd(wl_client);
		peer_pin_socket(&client->peer, fd, peer_now_ticks());
	}
	wl_list_init(&client->toplevels);
	client->identify =
			wl_event_loop_add_idle(list->loop, handle_identify, client);
	client->destroy.notify = handle_destroy;
	wl_client_add_destroy_listener(wl_client, &client->destroy);
	wl_list_insert(list->clients.prev, &client->link);
	if (client->xwayland) {
		list->xwayland = client;
	}
}

struct fw_client_list *fw_client_list_create(
		struct wl_display *display, struct gate *gate) {
	struct fw_client_list *list = calloc(1, sizeof(*list));
	if (list == NULL) {
		return NULL;
	}
	list->loop = wl_display_get_event_loop(display);
	list->gate = gate;
	wl_list_init(&list->clients);
	wl_signal_init(&list->events.identified);
	wl_signal_init(&list->events.destroy);
	list->client_created.notify = handle_client_created;
	wl_display_add_client_created_listener(display, &list->client_created);
	return list;
}

void fw_client_list_set_security_context(struct fw_client_list *list,
		struct wlr_security_context_manager_v1 *manager) {
	list->security_context = manager;
}

void fw_client_list_destroy(struct fw_client_list *list) {
	if (list == NULL) {
		return;
	}
	/* Normally none is left: every client went first. */
	while (!wl_list_empty(&list->clients)) {
		struct fw_client *client =
				wl_container_of(list->clients.next, client, link);
		handle_destroy(&client->destroy, client->wl_client);
	}
	fw_listener_disconnect(&list->client_created);
	free(list);
}
