#ifndef FAIRWAY_SCHEDULER_GATE_LIMITS_H
#define FAIRWAY_SCHEDULER_GATE_LIMITS_H

#include <stdbool.h>
#include <stddef.h>

/*
 * What clients may make fairway hold, so that no client, nor a few
 * together, can take the fds or the memory that serving everyone else
 * needs.
 *
 * Per client, each way: 1024 queued fds, what libwayland's fd ring holds
 * at its default buffer size. The request side stops reading a client at
 * the cap (it blocks in its own flush, as with libwayland); the event side
 * drops a client that lets that many pile up unread, as it does at 1 MiB
 * of bytes (libwayland alone drops it once what its socket refused fills
 * its buffers: 4 KiB and 1024 fds by default).
 *
 * All clients together: queued fds up to three quarters of RLIMIT_NOFILE,
 * the rest kept for accepting, for libwayland and wlroots, and for the
 * clients that behave; queued bytes up to gate_config.total_queued_cap.
 * Past either, the client holding the most is dropped, with a log line.
 * Clients connected at once: gate_config.max_clients, and no more than
 * half the fd limit has room for at 8 fds each; one more is told so with
 * a wl_display.error and hung up on. accept takes at most
 * LIMITS_ACCEPT_PER_WAKEUP clients a wakeup.
 */

#define LIMITS_MAX_QUEUED_FDS 1024
#define LIMITS_ACCEPT_PER_WAKEUP 16

struct gate;
struct gate_connection;

/* Sets the budgets from RLIMIT_NOFILE as it is now; logs them. */
void gate_limits_init(struct gate *gate);

/*
 * Brings the gate's totals up to date with what conn holds now. Once a
 * total is past its bound, returns the client holding the most, logged
 * and no longer counted, for the caller to drop; else NULL.
 */
struct gate_connection *gate_limits_account(struct gate_connection *conn);
/* Takes conn's share out of the totals: it is going. */
void gate_limits_forget(struct gate_connection *conn);

/*
 * Whether the client just accepted on fd may stay; if not, it has been
 * told why, and the refusal logged (at most once a second).
 */
bool gate_limits_may_accept(struct gate *gate, int fd);

#endif
