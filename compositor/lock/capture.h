#ifndef FAIRWAY_COMPOSITOR_LOCK_CAPTURE_H
#define FAIRWAY_COMPOSITOR_LOCK_CAPTURE_H

/*
 * While the session is locked nothing reads the screen or the clipboard.
 * global_filter.c shows screencopy, export-dmabuf and data-control to no client
 * then; this stops what clients bound before the lock, and what any
 * client could still ask for: the selection and primary selection serve
 * nothing (their sources' send closes the reader's fd; a source set while
 * locked too), for data-control, the data device and X alike, and a
 * screencopy or export-dmabuf frame that waits for an output's next commit
 * fails (screencopy's failed, export-dmabuf's temporary cancel) instead of
 * being filled. At the unlock the sources serve again, unchanged, and
 * clients capture again.
 */

#include <stdbool.h>

struct fw_server;
struct fw_capture;
struct wlr_export_dmabuf_manager_v1;
struct wlr_output;
struct wlr_screencopy_manager_v1;

/* After the seat: it watches the seat's selections. */
struct fw_capture *fw_capture_create(struct fw_server *server,
		struct wlr_screencopy_manager_v1 *screencopy,
		struct wlr_export_dmabuf_manager_v1 *export_dmabuf);
/* Accepts NULL. */
void fw_capture_destroy(struct fw_capture *capture);

/* The session was just locked, or unlocked. */
void fw_capture_lock(struct fw_capture *capture);
void fw_capture_unlock(struct fw_capture *capture);
/* A screencopy or export-dmabuf frame waits for output's next commit,
 * which must then come though nothing changed. */
bool fw_capture_output_waiting(
		struct fw_capture *capture, struct wlr_output *output);
/* output is about to commit a frame while the session is locked. */
void fw_capture_output_precommit(
		struct fw_capture *capture, struct wlr_output *output);

#endif
