#ifndef FAIRWAY_COMPOSITOR_SCHED_CLIENT_H
#define FAIRWAY_COMPOSITOR_SCHED_CLIENT_H

#include "scheduler/process/peer.h"
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>
#include <wayland-server-core.h>

struct fw_rated;
struct fw_sp_client;
struct gate;
struct wlr_security_context_manager_v1;
struct wlr_security_context_v1_state;

/* What a process is called: its comm and its executable's file name. */
struct fw_client_process {
	pid_t pid; /* 0: none */
	char comm[16];
	char exe[NAME_MAX + 1];
	/* The executable's full path, as the rules' exe= sees it; NULL
	 * where it cannot be read (another user's, or gone). */
	char *path;
};

/*
 * One Wayland client as sched/ knows it, shared by the application rules
 * (app_rules.c), the scheduler protocol (scheduler_protocol.c) and the
 * ratings (ratings_owner.c): who it is, read once, and what each of them
 * keeps about it. A record is made for every client as libwayland creates
 * it, and goes with it.
 */
struct fw_client {
	struct wl_client *wl_client;
	struct fw_client_list *list;
	/*
	 * Made by hand by wlroots, not accepted on a socket: Xwayland's
	 * (client_create.h), known from its creation on.
	 */
	bool xwayland;

	/*
	 * Its process, once known (fw_client_identify): pid 0 where none can
	 * be named (Xwayland's connection without the gate names fairway).
	 * Its names are read from /proc once, when it becomes known.
	 */
	bool known;
	struct fw_client_process process;
	uid_t uid;
	/*
	 * With --scheduler off, its peer as libwayland accepted it
	 * (client_create.h), pinned by a pidfd: what fw_client_identify and
	 * fw_client_dup_pidfd name. Not pinned with the gate, which pins its
	 * own.
	 */
	struct peer peer;

	/* app_rules.c: what the rules last said of its priority, if anything. */
	bool has_priority;
	int priority;
	int priority_line;
	/*
	 * The rules on a name it chose that lowered it since the rules were
	 * read (a rule_count array, NULL while none): they keep matching it
	 * whatever name it takes after.
	 */
	bool *kept_rules;
	/* fw_client_sandboxed's answer, once its process is known. */
	bool sandbox_known, sandboxed;
	/* scheduler_protocol.c: it lowered its own priority, to this. */
	bool self_lowered;
	int self_priority;
	struct wl_list toplevels; /* app_rules.c's fw_app_toplevel.link */

	/*
	 * The ratings': set up once its process is known (ratings_owner.c);
	 * rated NULL where it is not rated (fairway itself).
	 */
	bool rated_set;
	struct fw_rated *rated;
	int64_t service_ns; /* gate service seen so far */

	/* scheduler_protocol.c's record of it while someone watches, or NULL. */
	struct fw_sp_client *protocol;

	/* Its process is looked up once the gate has it: after connect. */
	struct wl_event_source *identify;
	struct wl_listener destroy;
	struct wl_list link; /* fw_client_list.clients, oldest first */
};

struct fw_client_list {
	struct wl_event_loop *loop;
	struct gate *gate; /* NULL with --scheduler off */
	struct wl_list clients; /* fw_client.link, oldest first */
	struct fw_client *xwayland; /* Xwayland's, while it is connected */
	/* Whose listeners' clients are sandboxed; NULL: none. */
	struct wlr_security_context_manager_v1 *security_context;
	struct wl_listener client_created;
	struct {
		/* fw_client: its process was looked up after connect, known or
		 * not (Xwayland's becomes known later). */
		struct wl_signal identified;
		/* fw_client: the client is going; its record after the signal. */
		struct wl_signal destroy;
	} events;
};

/*
 * Makes a record of every client display creates from now on. gate: the
 * gate that serves them, NULL when libwayland does. NULL on failure.
 */
struct fw_client_list *fw_client_list_create(
		struct wl_display *display, struct gate *gate);
/* Once every client has gone. Accepts NULL. */
void fw_client_list_destroy(struct fw_client_list *list);

/*
 * The clients that connect through a listener of manager's
 * (wp_security_context_v1) are sandboxed from now on, whatever their root
 * holds.
 */
void fw_client_list_set_security_context(struct fw_client_list *list,
		struct wlr_security_context_manager_v1 *manager);

/* client's record; NULL for a client made before the list. */
struct fw_client *fw_client_get(struct wl_client *client);
/* Whether client is Xwayland's (false for NULL). */
bool fw_client_is_xwayland(struct wl_client *client);

/*
 * Looks up the client's process if it is not known yet, for everything
 * in fairway that names one (ratings and hints, application rules, the
 * scheduler protocol, Xwayland): with the gate, as it pinned it
 * (scheduler/process/peer.h); with --scheduler off, as fairway pinned it when
 * libwayland accepted it (client_create.h). Either way pid 0 where it
 * could not be pinned. False while it is not known yet (Xwayland before
 * its first request).
 *
 * fairway never asks wl_client_get_credentials: on a gated client
 * libwayland's end is a socketpair fairway made, whatever the transport,
 * so it names fairway's own process; with the gate off it names a pid
 * that the client may have given up by the time it is used.
 */
bool fw_client_identify(struct fw_client *client);
/* A pidfd of its known process for the caller to keep, or -1. */
int fw_client_dup_pidfd(const struct fw_client *client);
/*
 * The security context the client connected through: the sandbox engine,
 * app id and instance id its sandbox's engine gave (each may be NULL);
 * NULL for a client of fairway's own socket.
 */
const struct wlr_security_context_v1_state *fw_client_security_context(
		const struct fw_client *client);
/*
 * Whether the client runs in a sandbox: it connected through a security
 * context's listener, or (older Flatpaks) Flatpak's /.flatpak-info is in
 * its process's root, read once its process is known. True for NULL and
 * for a client whose root cannot be read.
 */
bool fw_client_sandboxed(struct fw_client *client);

/*
 * Reads what process pid is called from /proc: "" (and no path) where it
 * cannot. process must be zeroed or read before; what it held is freed.
 */
void fw_client_process_read(struct fw_client_process *process, pid_t pid);
/* Frees what fw_client_process_read kept; the process is empty after. */
void fw_client_process_finish(struct fw_client_process *process);

#endif
