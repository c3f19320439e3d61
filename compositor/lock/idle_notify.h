#ifndef FAIRWAY_COMPOSITOR_LOCK_IDLE_NOTIFY_H
#define FAIRWAY_COMPOSITOR_LOCK_IDLE_NOTIFY_H

/*
 * The server side of ext-idle-notify-v1: each notification object is a
 * timer that fires once its seat has had no input for its timeout. When
 * input counts and when idleness is inhibited is idle.c's to say.
 */

#include <stdbool.h>

struct fw_idle_notifier;
struct wl_display;
struct wlr_seat;

struct fw_idle_notifier *fw_idle_notify_create(struct wl_display *display);
void fw_idle_notify_destroy(struct fw_idle_notifier *notifier);
/* Input on seat: idle notifications resume and their timers restart. */
void fw_idle_notify_activity(
		struct fw_idle_notifier *notifier, struct wlr_seat *seat);
/* While inhibited no notification becomes idle; timers restart after. */
void fw_idle_notify_set_inhibited(
		struct fw_idle_notifier *notifier, bool inhibited);

#endif
