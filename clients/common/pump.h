#ifndef FAIRWAY_CLIENTS_COMMON_PUMP_H
#define FAIRWAY_CLIENTS_COMMON_PUMP_H

#include <stddef.h>
#include <stdint.h>
#include <wayland-client.h>

/*
 * libwayland-client queues requests in a 4096-byte buffer and, when a
 * request does not fit, flushes it inline; if the socket is full at that
 * moment the display dies with "Resource temporarily unavailable". So a
 * client that floods must flush by itself before the buffer fills, and when
 * the socket is full it must wait for POLLOUT, as a real client blocks, while
 * still reading events so that the compositor does not block on it in turn.
 */

/*
 * Flushes, then waits up to timeout_ms (-1: forever) for events (or for
 * POLLOUT while unsent data remains), reads and dispatches them. Returns
 * the number of events dispatched, or -1 when the connection failed.
 */
int fw_pump(struct wl_display *display, int timeout_ms);
/*
 * The same, until deadline_ns on CLOCK_MONOTONIC (0: for ever), to the
 * nanosecond: a client that acts on its own clock (a pointer driven at a
 * rate) wakes on time, where a timeout in whole milliseconds would round
 * each wake up and lock what it does to the events that woke it instead.
 */
int fw_pump_until(struct wl_display *display, uint64_t deadline_ns);

/*
 * Sends everything queued, blocking while the socket is full and reading
 * events meanwhile. Returns 0 when all was sent, 1 when deadline_ns (0: none)
 * passed or a stop signal came first, -1 on a connection error.
 */
int fw_flush_blocking(struct wl_display *display, uint64_t deadline_ns);

/*
 * Counts what a flooding client queued since its last flush and flushes
 * (blocking) before libwayland's own buffers would overflow.
 */
struct fw_sender {
	struct wl_display *display;
	size_t bytes;
	size_t fds;
	uint64_t deadline_ns;
	uint64_t requests; /* requests queued in total */
	/*
	 * Bytes queued before a flush: 2 KiB unless set (at most
	 * FW_SENDER_MAX_BYTES_LIMIT, under libwayland's 4096-byte buffer).
	 */
	size_t max_bytes;
};

#define FW_SENDER_MAX_BYTES_LIMIT 3584

void fw_sender_init(struct fw_sender *sender, struct wl_display *display,
		uint64_t deadline_ns);

/*
 * Call before queueing a request of `bytes` bytes carrying `fds` fds.
 * Returns like fw_flush_blocking (0 when the request may be queued).
 */
int fw_sender_reserve(struct fw_sender *sender, size_t bytes, size_t fds);

/* Flushes everything and resets the counts; returns like fw_flush_blocking. */
int fw_sender_flush(struct fw_sender *sender);

#endif
