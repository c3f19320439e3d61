#ifndef FAIRWAY_COMPOSITOR_LOCK_SESSION_LOCK_H
#define FAIRWAY_COMPOSITOR_LOCK_SESSION_LOCK_H

/*
 * The server side of ext-session-lock-v1: the protocol objects and their
 * rules, and no policy. Whether a lock is granted, what the outputs show
 * and who gets input is lock.c's to decide.
 */

#include <stdbool.h>
#include <stdint.h>
#include <wayland-server-core.h>

struct wlr_output;
struct wlr_surface;

struct fw_session_lock_manager {
	struct wl_global *global;
	struct {
		/* struct fw_session_lock *: answer it with send_locked or
		 * send_finished. */
		struct wl_signal new_lock;
	} events;
};

struct fw_session_lock {
	struct wl_resource *resource;
	struct wl_list surfaces; /* fw_session_lock_surface.link */
	bool locked_sent;
	bool finished_sent;
	/* The client asked to destroy it before it was locked. */
	bool cancelled;
	struct {
		/* struct fw_session_lock_surface * */
		struct wl_signal new_surface;
		struct wl_signal unlock;
		/* Last: after unlock, after a cancel, or when its client went. */
		struct wl_signal destroy;
	} events;
	void *data;
};

struct fw_session_lock_surface {
	struct wl_resource *resource;
	struct wl_list link; /* fw_session_lock.surfaces */
	struct fw_session_lock *lock;
	struct wlr_surface *surface;
	struct wlr_output *output; /* NULL once the output is gone */
	bool mapped;
	struct {
		struct wl_signal map;
		struct wl_signal destroy;
	} events;
	void *data;

	/* private */
	struct wl_list configures; /* configure.link, oldest first */
	bool acked; /* an ack_configure came since the first configure */
	uint32_t acked_width, acked_height;
	bool failed; /* a protocol error ended its client */
	struct wl_listener surface_destroy;
	struct wl_listener output_destroy;
};

struct fw_session_lock_manager *fw_session_lock_manager_create(
		struct wl_display *display);
void fw_session_lock_manager_destroy(struct fw_session_lock_manager *manager);

void fw_session_lock_send_locked(struct fw_session_lock *lock);
/* Refuses the lock (or ends it); the lock goes inert. */
void fw_session_lock_send_finished(struct fw_session_lock *lock);

/* Sends a configure of this size; returns its serial. */
uint32_t fw_session_lock_surface_configure(
		struct fw_session_lock_surface *lock_surface, uint32_t width,
		uint32_t height);
/* The lock surface whose role this surface has, or NULL. */
struct fw_session_lock_surface *fw_session_lock_surface_from_surface(
		struct wlr_surface *surface);

#endif
