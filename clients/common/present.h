#ifndef FAIRWAY_CLIENTS_COMMON_PRESENT_H
#define FAIRWAY_CLIENTS_COMMON_PRESENT_H

#include <stdbool.h>
#include <stdint.h>
#include <wayland-client.h>

/*
 * Called once per requested feedback: presented (with the CLOCK_MONOTONIC
 * time the frame turned to light, per wp_presentation) or discarded (the
 * commit was replaced before it reached the screen; present_ns is 0).
 */
typedef void (*fw_present_fn)(
		void *data, uint64_t seq, bool presented, uint64_t present_ns);

/* Tracks outstanding wp_presentation_feedback objects for one client. */
struct fw_present {
	struct wp_presentation *presentation;
	struct wl_list pending; /* struct fw_feedback.link */
	fw_present_fn callback;
	void *data;
	uint64_t presented, discarded;
};

void fw_present_init(struct fw_present *present,
		struct wp_presentation *presentation, fw_present_fn callback,
		void *data);

/* Destroys the feedback objects still outstanding. */
void fw_present_finish(struct fw_present *present);

/*
 * Asks for feedback on the next commit of `surface`; call it before
 * wl_surface.commit. `seq` comes back in the callback. Returns -1 on
 * allocation failure.
 */
int fw_present_request(
		struct fw_present *present, struct wl_surface *surface, uint64_t seq);

#endif
