#include "compositor/sched/client_create.h"
#include "scheduler/gate/gate.h"
#include "scheduler/process/peer.h"
#include <dlfcn.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>
#include <wayland-server-core.h>
#include <wlr/util/log.h>

/*
 * wlroots makes XWayland's Wayland client itself: xwayland/server.c
 * (server_start) creates a socketpair, gives one end to Xwayland as
 * WAYLAND_SOCKET and calls wl_client_create(display, fd) on the other,
 * with no hook in between. For X clients to be scheduled like every
 * other client, that connection must pass the gate too. The same holds
 * for the clients a security context's listener accepts
 * (types/wlr_security_context_v1.c calls wl_client_create on each
 * accepted fd): sandboxed applications are scheduled, rated and known by
 * their process like any other. So fairway
 * defines wl_client_create itself: the executable's definition comes
 * first in the dynamic linker's search order, so libwlroots' call lands
 * here, and the fd goes to the gate instead. wlroots stops owning the fd
 * once that call returned a client ("not ours anymore" in server.c). The
 * gate makes its own clients through fw_client_create_real.
 */

typedef struct wl_client *(*client_create_func_t)(struct wl_display *, int);

static struct gate *adopting_gate;
/* Within wl_client_create for a client made by hand. */
static bool creating_by_hand;
/* Within it for a client libwayland accepted: its peer, pinned. */
static struct peer *creating_peer;

struct wl_client *fw_client_create_real(struct wl_display *display, int fd) {
	static client_create_func_t real;
	if (!real) {
		real = (client_create_func_t)dlsym(RTLD_NEXT, "wl_client_create");
		if (!real) {
			wlr_log(WLR_ERROR, "cannot find libwayland's wl_client_create");
			abort();
		}
	}
	return real(display, fd);
}

void fw_client_create_set_gate(struct gate *gate) {
	adopting_gate = gate;
}

bool fw_client_create_by_hand(void) {
	return creating_by_hand;
}

bool fw_client_create_take_peer(struct peer *peer) {
	peer_init(peer);
	if (creating_peer == NULL || creating_peer->pidfd < 0) {
		return false;
	}
	*peer = *creating_peer;
	peer_init(creating_peer);
	return true;
}

/*
 * Whether fairway made fd's socket itself: a socketpair's peer is the
 * process that called socketpair. With the gate off, the clients that
 * connect to the listening socket come through here too (libwayland's
 * own call also lands on this definition), and their peer is the client.
 */
static bool made_here(int fd) {
	struct ucred cred;
	socklen_t len = sizeof(cred);
	return getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) == 0 &&
			cred.pid == getpid();
}

/*
 * As libwayland's own, fd is the caller's again when this fails: wlroots
 * then closes it (server_finish_process closes wl_fd[0], which it sets to
 * -1 only once a client came back). The gate closes what it is given even
 * when it fails, so it is given a copy, and fd is closed here only once
 * the gate holds the client.
 */
static struct wl_client *create(struct wl_display *display, int fd) {
	if (!adopting_gate) {
		return fw_client_create_real(display, fd);
	}
	wlr_log(WLR_DEBUG, "Gating a client %s",
			creating_by_hand ? "made by hand (XWayland's)"
							 : "accepted by wlroots (a security context's)");
	int own = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	if (own < 0) {
		wlr_log_errno(WLR_ERROR, "Cannot gate a client wlroots made");
		return NULL;
	}
	/* An accepted socket's peer is the client: pinned from the socket. */
	struct wl_client *client = creating_by_hand
			? gate_adopt(adopting_gate, own)
			: gate_adopt_accepted(adopting_gate, own);
	if (client != NULL) {
		close(fd);
	}
	return client;
}

struct wl_client *wl_client_create(struct wl_display *display, int fd) {
	creating_by_hand = made_here(fd);
	/*
	 * libwayland's accept, with the gate off: the peer is pinned here,
	 * as the gate pins its own (peer.h), before anything could name it
	 * by a pid it may have given up by then.
	 */
	struct peer peer;
	peer_init(&peer);
	if (!adopting_gate && !creating_by_hand) {
		peer_pin_socket(&peer, fd, peer_now_ticks());
		creating_peer = &peer;
	}
	struct wl_client *client = create(display, fd);
	creating_by_hand = false;
	creating_peer = NULL;
	/* Not taken: no record was made of it. */
	peer_finish(&peer);
	return client;
}
