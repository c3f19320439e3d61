#include "clients/common/present.h"

#include <stdlib.h>

#include "presentation-time-client-protocol.h"

struct fw_feedback {
	struct fw_present *present;
	struct wp_presentation_feedback *feedback;
	uint64_t seq;
	struct wl_list link;
};

static void feedback_destroy(struct fw_feedback *fb) {
	wl_list_remove(&fb->link);
	wp_presentation_feedback_destroy(fb->feedback);
	free(fb);
}

static void handle_sync_output(void *data,
		struct wp_presentation_feedback *feedback, struct wl_output *output) {
	/* Which output showed the frame does not matter to the clients. */
}

static void handle_presented(void *data,
		struct wp_presentation_feedback *feedback, uint32_t tv_sec_hi,
		uint32_t tv_sec_lo, uint32_t tv_nsec, uint32_t refresh, uint32_t seq_hi,
		uint32_t seq_lo, uint32_t flags) {
	struct fw_feedback *fb = data;
	struct fw_present *present = fb->present;
	uint64_t sec = ((uint64_t)tv_sec_hi << 32) | tv_sec_lo;
	uint64_t ns = sec * 1000000000u + tv_nsec;
	uint64_t seq = fb->seq;
	feedback_destroy(fb);
	present->presented++;
	present->callback(present->data, seq, true, ns);
}

static void handle_discarded(
		void *data, struct wp_presentation_feedback *feedback) {
	struct fw_feedback *fb = data;
	struct fw_present *present = fb->present;
	uint64_t seq = fb->seq;
	feedback_destroy(fb);
	present->discarded++;
	present->callback(present->data, seq, false, 0);
}

static const struct wp_presentation_feedback_listener feedback_listener = {
		.sync_output = handle_sync_output,
		.presented = handle_presented,
		.discarded = handle_discarded,
};

void fw_present_init(struct fw_present *present,
		struct wp_presentation *presentation, fw_present_fn callback,
		void *data) {
	present->presentation = presentation;
	wl_list_init(&present->pending);
	present->callback = callback;
	present->data = data;
	present->presented = 0;
	present->discarded = 0;
}

void fw_present_finish(struct fw_present *present) {
	struct fw_feedback *fb, *tmp;
	wl_list_for_each_safe(fb, tmp, &present->pending, link) {
		feedback_destroy(fb);
	}
}

int fw_present_request(
		struct fw_present *present, struct wl_surface *surface, uint64_t seq) {
	struct fw_feedback *fb = calloc(1, sizeof(*fb));
	if (fb == NULL) {
		return -1;
	}
	fb->feedback = wp_presentation_feedback(present->presentation, surface);
	if (fb->feedback == NULL) {
		free(fb);
		return -1;
	}
	fb->present = present;
	fb->seq = seq;
	wp_presentation_feedback_add_listener(fb->feedback, &feedback_listener, fb);
	wl_list_insert(present->pending.prev, &fb->link);
	return 0;
}
