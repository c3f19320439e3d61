#ifndef FAIRWAY_SCHEDULER_TRACE_TRACE_H
#define FAIRWAY_SCHEDULER_TRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * A passive protocol trace, after Packard and Gettys' X traces ("X Window
 * System Network Performance"): every message each way, timed, with no
 * effect on the scheduling. What a client waited for, how long its
 * requests sat queued and how long it was idle are read off afterwards
 * (clients/tools/fairway-trace-summary).
 *
 * One JSON line per record. t is seconds since the trace began, pid the
 * client's process, and client a number that names one connection for
 * the whole trace (a process may hold several). Format version 2; version
 * 1 had only the request, event and forward records, without "client".
 *
 *   {"t":0,"pid":P,"dir":"start","version":2,"gated":B,"monotonic":M}
 *     The first record. pid is fairway's; gated says whether the dispatch
 *     gate feeds the trace (--scheduler on); M is CLOCK_MONOTONIC, in
 *     seconds, at t = 0.
 *   {"t":S,"pid":P,"client":C,"dir":"connect","comm":"foot"}
 *     A client connected (those connected before the trace began are left
 *     out). On a socket fairway made itself (Xwayland's), pid is fairway's
 *     until the gate learns the writer of the first bytes:
 *   {"t":S,"pid":P,"client":C,"dir":"pid","comm":"Xwayland"}
 *   {"t":S,"pid":P,"client":C,"dir":"request","object":O,"opcode":N,"size":B}
 *     Gated: when the gate read it. Otherwise: when libwayland ran it.
 *   {"t":S,"pid":P,"client":C,"dir":"forward","messages":N,"bytes":B}
 *     Gated only: the scheduler released that many queued requests, in
 *     order, to libwayland, which runs them at once.
 *   {"t":S,"pid":P,"client":C,"dir":"event","object":O,"opcode":N,"size":B}
 *     Gated: when libwayland wrote it, and the gate sent it on (unless the
 *     client's socket was full: see queues). Otherwise: when fairway's
 *     loop flushed the clients after libwayland queued it (it may have
 *     left earlier, if libwayland's 4 KiB buffer filled); a
 *     wl_display.delete_id, which libwayland holds back until it sends
 *     that client something else, with that.
 *   {"t":S,"pid":P,"client":C,"dir":"reply","seq":K,"object":O,"opcode":N,
 *    "request":"wl_display.sync","interface":"wl_callback"}
 *     The client's K-th request (1-based) created object O, and the
 *     compositor queued an event on O while it handled that request,
 *     before the client's next request ran and before its events next went
 *     out: an answer to the request, written when it was queued. Only the
 *     first answer to each new object is written; the event record itself
 *     follows when it is sent.
 *   {"t":S,"pid":P,"client":C,"dir":"queues","requests_full":B,
 *    "events_waiting":B}
 *     Gated only, written when either changes: the gate stopped reading
 *     the client at its request cap (the client blocks in its flush once
 *     its socket fills), or events wait for the client to read its full
 *     socket.
 *   {"t":S,"pid":P,"client":C,"dir":"presented","surface":O}
 *     An output frame first showed some of surface O.
 *   {"t":S,"pid":P,"client":C,"dir":"disconnect"}
 */
struct gate_trace;

struct capped_file;
struct wire_header;
struct wl_client;
struct wl_display;
struct wl_resource;

/*
 * Writes to `out` (scheduler/capped_file.h), which the trace does not close.
 * gated: the gate calls the gate_trace_* functions below for every client;
 * otherwise libwayland serves the clients and the trace sees their
 * messages through a protocol logger, which it adds in either case to
 * learn which events answer which requests.
 */
struct gate_trace *gate_trace_create(
		struct capped_file *out, struct wl_display *display, bool gated);
/* Flushes. Accepts NULL. */
void gate_trace_destroy(struct gate_trace *trace);

/* The gate's calls; pid is the client's process as the gate knows it.
 * These and the two below do nothing with a NULL trace. */
void gate_trace_connect(
		struct gate_trace *trace, struct wl_client *client, pid_t pid);
void gate_trace_message(struct gate_trace *trace, struct wl_client *client,
		pid_t pid, bool event, const struct wire_header *header);
/* Each whole message in buf[0..len), one record apiece. */
void gate_trace_messages(struct gate_trace *trace, struct wl_client *client,
		pid_t pid, bool events, const uint8_t *buf, size_t len);
void gate_trace_forward(struct gate_trace *trace, struct wl_client *client,
		pid_t pid, size_t messages, size_t bytes);
/* Writes a queues record when either state changed since the last. */
void gate_trace_queues(struct gate_trace *trace, struct wl_client *client,
		pid_t pid, bool requests_full, bool events_waiting);

/* Not gated: fairway's loop just flushed every client's events. */
void gate_trace_flushed(struct gate_trace *trace);
/* The compositor's call: a frame first showed part of this wl_surface. */
void gate_trace_presented(
		struct gate_trace *trace, struct wl_resource *surface);

#endif
