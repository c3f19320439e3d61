#ifndef FAIRWAY_COMPOSITOR_SCHED_SCHED_H
#define FAIRWAY_COMPOSITOR_SCHED_SCHED_H

#include "scheduler/gate/gate.h"
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * fairway's side of the scheduler (scheduler/): the Wayland socket and the
 * dispatch gate behind it, what hangs off the gate (--stats, --trace,
 * SIGUSR1), sched_log's way into wlroots' log, the run loop, and what the
 * compositor tells the gate about its clients or asks it. With --scheduler
 * off, libwayland serves clients itself and the calls here that need the
 * gate do nothing.
 */

struct fw_client_list;
struct fw_server;
struct fw_sched;
struct gate;
struct gate_stats_extra;
struct gate_trace;
struct wl_client;
struct wlr_surface;

/* What fairway's settings say of the socket and the gate. */
struct fw_sched_config {
	bool enabled; /* --scheduler: off, libwayland serves clients itself */
	const char *socket; /* --socket; NULL: pick wayland-N */
	enum gate_transport_choice transport; /* --gate-transport */
	/* --sched-interval, --sched-max-slice or the file's scheduler lines;
	 * 0: the scheduler's defaults. */
	double interval_ms;
	double max_slice_ms;
	const char *stats_path; /* --stats: the gate's per-client records */
	const char *trace_path; /* --trace: the gate's protocol trace */
	/*
	 * The file's "scheduler manager": the executables (full paths) whose
	 * clients are shown fairway_scheduler_manager_v1. Not set:
	 * fairway-top's installed path alone. The configuration owns them.
	 */
	bool manager_exes_set;
	char **manager_exes;
	size_t manager_exe_count;
};

/* sched_log goes to wlr_log: once, after wlr_log_init. */
void fw_sched_log_to_wlr(void);

/*
 * Listens on the Wayland socket, through the gate unless --scheduler off,
 * and starts --stats and --trace, as config says; config is read again
 * by fw_sched_apply_config. NULL with the reason logged.
 */
struct fw_sched *fw_sched_create(
		struct fw_server *server, const struct fw_sched_config *config);
/* Once every client has gone: closes the socket and the files. Accepts
 * NULL. */
void fw_sched_destroy(struct fw_sched *sched);

const char *fw_sched_socket_name(const struct fw_sched *sched);

/*
 * Serves a client on a socket that did not come through the listening
 * socket (one end of a socketpair whose other end a program in this
 * process holds, as a conformance harness does): through the gate like
 * any client that connected, or straight to libwayland with --scheduler
 * off. Takes fd, even on failure; NULL then.
 */
struct wl_client *fw_sched_adopt_client(struct fw_sched *sched, int fd);
/* The gate, for its client API (scheduler/gate/gate.h); NULL when off. */
struct gate *fw_sched_get_gate(const struct fw_sched *sched);
/* Every client's record (client.h). */
struct fw_client_list *fw_sched_get_clients(const struct fw_sched *sched);
/* The --trace writer (scheduler/trace/trace.h), or NULL without one. */
struct gate_trace *fw_sched_get_trace(const struct fw_sched *sched);

/*
 * fairway's run loop (gate_iterate, or libwayland's own dispatch) until
 * fw_sched_stop.
 */
void fw_sched_run(struct fw_sched *sched);
/* Ends fw_sched_run at the end of the turn; callable from anywhere. */
void fw_sched_stop(struct fw_sched *sched);

/* The slices the configuration now gives, after a reload. */
void fw_sched_apply_config(struct fw_sched *sched);
/* Xorg's client priority (gate.h); false if the client is not gated. */
bool fw_sched_set_client_priority(
		struct fw_sched *sched, struct wl_client *client, int priority);

/*
 * --stats: what the rest of fairway adds to each client's line and to each
 * period (the frame schedule's and the ratings'); nothing without --stats.
 */
void fw_sched_set_stats_extra(
		struct fw_sched *sched, const struct gate_stats_extra *extra);

/*
 * Input went to client (may be NULL): it is boosted in the gate. The
 * seat's fw_seat_note_input tells the rest of fairway too.
 */
void fw_sched_note_input(struct fw_sched *sched, struct wl_client *client);
/*
 * A window-management event went to the surface's client: configure,
 * activation, focus, close. Like Xorg's Expose and ConfigureNotify it boosts
 * the client in the gate, but it is no user input for the ratings.
 */
void fw_sched_note_window_event(
		struct fw_sched *sched, struct wlr_surface *surface);

#endif
