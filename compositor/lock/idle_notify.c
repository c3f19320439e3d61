#include "compositor/lock/idle_notify.h"
#include "compositor/lock/resource.h"
#include "ext-idle-notify-v1-protocol.h"
#include <stdlib.h>
#include <wayland-server-core.h>
#include <wlr/types/wlr_seat.h>

#define NOTIFIER_VERSION 1

struct fw_idle_notifier {
	struct wl_global *global;
	struct wl_event_loop *loop;
	struct wl_list notifications; /* notification.link */
	bool inhibited;
};

struct notification {
	struct wl_resource *resource;
	struct wl_list link; /* fw_idle_notifier.notifications */
	struct fw_idle_notifier *notifier;
	struct wlr_seat *seat; /* NULL: an inert seat, never idle */
	uint32_t timeout_ms;
	struct wl_event_source *timer;
	bool idle;
};

static void become_idle(struct notification *notification) {
	if (notification->idle || notification->notifier->inhibited) {
		return;
	}
	notification->idle = true;
	ext_idle_notification_v1_send_idled(notification->resource);
}

static int handle_timer(void *data) {
	become_idle(data);
	return 0;
}

/* Starts the timeout over, or stops it while inhibited. */
static void arm(struct notification *notification) {
	if (notification->seat == NULL || notification->idle) {
		return;
	}
	if (notification->notifier->inhibited) {
		wl_event_source_timer_update(notification->timer, 0);
	} else if (notification->timeout_ms == 0) {
		/* A timer of 0 is disarmed: zero means idle as soon as possible. */
		become_idle(notification);
	} else {
		wl_event_source_timer_update(
				notification->timer, (int)notification->timeout_ms);
	}
}

static const struct ext_idle_notification_v1_interface notification_impl = {
		.destroy = fw_resource_handle_destroy,
};

static void notification_handle_resource_destroy(struct wl_resource *resource) {
	struct notification *notification = wl_resource_get_user_data(resource);
	wl_list_remove(&notification->link);
	wl_event_source_remove(notification->timer);
	free(notification);
}

static void notifier_handle_get_idle_notification(struct wl_client *client,
		struct wl_resource *notifier_resource, uint32_t id, uint32_t timeout,
		struct wl_resource *seat_resource) {
	struct fw_idle_notifier *notifier =
			wl_resource_get_user_data(notifier_resource);
	struct wlr_seat_client *seat_client =
			wlr_seat_client_from_resource(seat_resource);
	struct notification *notification = calloc(1, sizeof(*notification));
	if (notification == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	notification->timer =
			wl_event_loop_add_timer(notifier->loop, handle_timer, notification);
	notification->resource =
			wl_resource_create(client, &ext_idle_notification_v1_interface,
					wl_resource_get_version(notifier_resource), id);
	if (notification->timer == NULL || notification->resource == NULL) {
		if (notification->timer != NULL) {
			wl_event_source_remove(notification->timer);
		}
		free(notification);
		wl_client_post_no_memory(client);
		return;
	}
	notification->notifier = notifier;
	notification->seat = seat_client != NULL ? seat_client->seat : NULL;
	notification->timeout_ms = timeout;
	wl_resource_set_implementation(notification->resource, &notification_impl,
			notification, notification_handle_resource_destroy);
	wl_list_insert(&notifier->notifications, &notification->link);
	arm(notification);
}

static const struct ext_idle_notifier_v1_interface notifier_impl = {
		.destroy = fw_resource_handle_destroy,
		.get_idle_notification = notifier_handle_get_idle_notification,
};

static void notifier_bind(
		struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	fw_resource_bind(client, &ext_idle_notifier_v1_interface, version, id,
			&notifier_impl, data);
}

struct fw_idle_notifier *fw_idle_notify_create(struct wl_display *display) {
	struct fw_idle_notifier *notifier = calloc(1, sizeof(*notifier));
	if (notifier == NULL) {
		return NULL;
	}
	notifier->loop = wl_display_get_event_loop(display);
	wl_list_init(&notifier->notifications);
	notifier->global =
			wl_global_create(display, &ext_idle_notifier_v1_interface,
					NOTIFIER_VERSION, notifier, notifier_bind);
	if (notifier->global == NULL) {
		free(notifier);
		return NULL;
	}
	return notifier;
}

void fw_idle_notify_destroy(struct fw_idle_notifier *notifier) {
	if (notifier == NULL) {
		return;
	}
	/* Notifications outliving it (none once the clients are gone) go
	 * inert rather than point at freed memory. */
	struct notification *notification, *tmp;
	wl_list_for_each_safe(notification, tmp, &notifier->notifications, link) {
		wl_list_remove(&notification->link);
		wl_list_init(&notification->link);
		wl_event_source_timer_update(notification->timer, 0);
		notification->seat = NULL;
	}
	wl_global_destroy(notifier->global);
	free(notifier);
}

void fw_idle_notify_activity(
		struct fw_idle_notifier *notifier, struct wlr_seat *seat) {
	struct notification *notification;
	wl_list_for_each(notification, &notifier->notifications, link) {
		if (notification->seat != seat) {
			continue;
		}
		if (notification->idle) {
			notification->idle = false;
			ext_idle_notification_v1_send_resumed(notification->resource);
		}
		arm(notification);
	}
}

void fw_idle_notify_set_inhibited(
		struct fw_idle_notifier *notifier, bool inhibited) {
	if (notifier->inhibited == inhibited) {
		return;
	}
	notifier->inhibited = inhibited;
	struct notification *notification;
	wl_list_for_each(notification, &notifier->notifications, link) {
		arm(notification);
	}
}
