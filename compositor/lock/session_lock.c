/*
 * ext-session-lock-v1, the protocol side. wlroots 0.15 has no helper for
 * it, so the objects, their lifetimes and the protocol errors the
 * specification lists live here; lock.c listens to the signals and decides.
 */
#include "compositor/lock/session_lock.h"
#include "compositor/listener.h"
#include "compositor/lock/resource.h"
#include "ext-session-lock-v1-protocol.h"
#include <stdlib.h>
#include <wlr/types/wlr_output.h>
#include <wlr/types/wlr_surface.h>
#include <wlr/util/log.h>

#define MANAGER_VERSION 1

struct configure {
	struct wl_list link; /* fw_session_lock_surface.configures */
	uint32_t serial;
	uint32_t width, height;
};

static const struct ext_session_lock_manager_v1_interface manager_impl;
static const struct ext_session_lock_v1_interface lock_impl;
static const struct ext_session_lock_surface_v1_interface lock_surface_impl;

static struct fw_session_lock *lock_from_resource(
		struct wl_resource *resource) {
	return wl_resource_get_user_data(resource);
}

static struct fw_session_lock_surface *lock_surface_from_resource(
		struct wl_resource *resource) {
	return wl_resource_get_user_data(resource);
}

static void lock_surface_destroy(struct fw_session_lock_surface *lock_surface) {
	wl_signal_emit(&lock_surface->events.destroy, lock_surface);
	wl_list_remove(&lock_surface->link);
	wl_list_remove(&lock_surface->surface_destroy.link);
	fw_listener_disconnect(&lock_surface->output_destroy);
	/* The surface keeps its role; another lock surface may take it. */
	if (lock_surface->surface->role_data == lock_surface) {
		lock_surface->surface->role_data = NULL;
	}
	struct configure *configure, *tmp;
	wl_list_for_each_safe(configure, tmp, &lock_surface->configures, link) {
		wl_list_remove(&configure->link);
		free(configure);
	}
	wl_resource_set_user_data(lock_surface->resource, NULL);
	free(lock_surface);
}

static void lock_surface_fail(struct fw_session_lock_surface *lock_surface,
		uint32_t code, const char *message) {
	lock_surface->failed = true;
	wl_resource_post_error(lock_surface->resource, code, "%s", message);
}

/* Before the commit is applied: the checks the specification asks for. */
static void lock_surface_role_precommit(struct wlr_surface *surface) {
	struct fw_session_lock_surface *lock_surface = surface->role_data;
	if (lock_surface == NULL || lock_surface->failed) {
		return;
	}
	if (!lock_surface->acked) {
		lock_surface_fail(lock_surface,
				EXT_SESSION_LOCK_SURFACE_V1_ERROR_COMMIT_BEFORE_FIRST_ACK,
				"lock surface committed before its first ack_configure");
		return;
	}
	bool attaching = surface->pending.committed & WLR_SURFACE_STATE_BUFFER;
	if ((attaching && surface->pending.buffer == NULL) ||
			(!attaching && !wlr_surface_has_buffer(surface))) {
		lock_surface_fail(lock_surface,
				EXT_SESSION_LOCK_SURFACE_V1_ERROR_NULL_BUFFER,
				"lock surface committed without a buffer");
		return;
	}
	if ((uint32_t)surface->pending.width != lock_surface->acked_width ||
			(uint32_t)surface->pending.height != lock_surface->acked_height) {
		lock_surface_fail(lock_surface,
				EXT_SESSION_LOCK_SURFACE_V1_ERROR_DIMENSIONS_MISMATCH,
				"lock surface size differs from the acked configure");
	}
}

/* After the commit is applied: the first good buffer maps it. */
static void lock_surface_role_commit(struct wlr_surface *surface) {
	struct fw_session_lock_surface *lock_surface = surface->role_data;
	if (lock_surface == NULL || lock_surface->failed || lock_surface->mapped ||
			!wlr_surface_has_buffer(surface)) {
		return;
	}
	lock_surface->mapped = true;
	wl_signal_emit(&lock_surface->events.map, lock_surface);
}

static const struct wlr_surface_role lock_surface_role = {
		.name = "ext_session_lock_surface_v1",
		.commit = lock_surface_role_commit,
		.precommit = lock_surface_role_precommit,
};

struct fw_session_lock_surface *fw_session_lock_surface_from_surface(
		struct wlr_surface *surface) {
	if (surface == NULL || surface->role != &lock_surface_role) {
		return NULL;
	}
	return surface->role_data;
}

uint32_t fw_session_lock_surface_configure(
		struct fw_session_lock_surface *lock_surface, uint32_t width,
		uint32_t height) {
	struct configure *configure = calloc(1, sizeof(*configure));
	if (configure == NULL) {
		wl_resource_post_no_memory(lock_surface->resource);
		return 0;
	}
	struct wl_display *display = wl_client_get_display(
			wl_resource_get_client(lock_surface->resource));
	configure->serial = wl_display_next_serial(display);
	configure->width = width;
	configure->height = height;
	wl_list_insert(lock_surface->configures.prev, &configure->link);
	ext_session_lock_surface_v1_send_configure(
			lock_surface->resource, configure->serial, width, height);
	return configure->serial;
}

static void lock_surface_handle_ack_configure(struct wl_client *client,
		struct wl_resource *resource, uint32_t serial) {
	struct fw_session_lock_surface *lock_surface =
			lock_surface_from_resource(resource);
	if (lock_surface == NULL) {
		return;
	}
	struct configure *configure, *found = NULL;
	wl_list_for_each(configure, &lock_surface->configures, link) {
		if (configure->serial == serial) {
			found = configure;
			break;
		}
	}
	if (found == NULL) {
		lock_surface_fail(lock_surface,
				EXT_SESSION_LOCK_SURFACE_V1_ERROR_INVALID_SERIAL,
				"ack_configure with an unknown or already acked serial");
		return;
	}
	/* Acking one configure consumes it and every older one. */
	struct configure *tmp;
	wl_list_for_each_safe(configure, tmp, &lock_surface->configures, link) {
		bool last = configure == found;
		if (last) {
			lock_surface->acked = true;
			lock_surface->acked_width = configure->width;
			lock_surface->acked_height = configure->height;
		}
		wl_list_remove(&configure->link);
		free(configure);
		if (last) {
			break;
		}
	}
}

static const struct ext_session_lock_surface_v1_interface lock_surface_impl = {
		.destroy = fw_resource_handle_destroy,
		.ack_configure = lock_surface_handle_ack_configure,
};

static void lock_surface_handle_resource_destroy(struct wl_resource *resource) {
	struct fw_session_lock_surface *lock_surface =
			lock_surface_from_resource(resource);
	if (lock_surface != NULL) {
		lock_surface_destroy(lock_surface);
	}
}

static void lock_surface_handle_surface_destroy(
		struct wl_listener *listener, void *data) {
	struct fw_session_lock_surface *lock_surface =
			wl_container_of(listener, lock_surface, surface_destroy);
	lock_surface_destroy(lock_surface);
}

static void lock_surface_handle_output_destroy(
		struct wl_listener *listener, void *data) {
	struct fw_session_lock_surface *lock_surface =
			wl_container_of(listener, lock_surface, output_destroy);
	fw_listener_disconnect(&lock_surface->output_destroy);
	lock_surface->output = NULL;
}

static void lock_handle_get_lock_surface(struct wl_client *client,
		struct wl_resource *lock_resource, uint32_t id,
		struct wl_resource *surface_resource,
		struct wl_resource *output_resource) {
	struct fw_session_lock *lock = lock_from_resource(lock_resource);
	struct wlr_surface *surface = wlr_surface_from_resource(surface_resource);
	struct wlr_output *output = wlr_output_from_resource(output_resource);

	if (surface->role != NULL &&
			(surface->role != &lock_surface_role ||
					surface->role_data != NULL)) {
		wl_resource_post_error(lock_resource, EXT_SESSION_LOCK_V1_ERROR_ROLE,
				"wl_surface@%u already has a role",
				wl_resource_get_id(surface_resource));
		return;
	}
	if (lock != NULL && output != NULL) {
		struct fw_session_lock_surface *other;
		wl_list_for_each(other, &lock->surfaces, link) {
			if (other->output == output) {
				wl_resource_post_error(lock_resource,
						EXT_SESSION_LOCK_V1_ERROR_DUPLICATE_OUTPUT,
						"output %s already has a lock surface", output->name);
				return;
			}
		}
	}
	if (wlr_surface_has_buffer(surface) ||
			(surface->pending.committed & WLR_SURFACE_STATE_BUFFER)) {
		wl_resource_post_error(lock_resource,
				EXT_SESSION_LOCK_V1_ERROR_ALREADY_CONSTRUCTED,
				"wl_surface@%u already has a buffer",
				wl_resource_get_id(surface_resource));
		return;
	}

	struct wl_resource *resource =
			wl_resource_create(client, &ext_session_lock_surface_v1_interface,
					wl_resource_get_version(lock_resource), id);
	if (resource == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	/* A refused lock, or an output already gone: an inert object. */
	if (lock == NULL || lock->finished_sent || output == NULL) {
		wl_resource_set_implementation(
				resource, &lock_surface_impl, NULL, NULL);
		return;
	}
	struct fw_session_lock_surface *lock_surface =
			calloc(1, sizeof(*lock_surface));
	if (lock_surface == NULL) {
		wl_resource_set_implementation(
				resource, &lock_surface_impl, NULL, NULL);
		wl_client_post_no_memory(client);
		return;
	}
	if (!wlr_surface_set_role(surface, &lock_surface_role, lock_surface,
				lock_resource, EXT_SESSION_LOCK_V1_ERROR_ROLE)) {
		free(lock_surface);
		wl_resource_set_implementation(
				resource, &lock_surface_impl, NULL, NULL);
		return;
	}
	lock_surface->resource = resource;
	lock_surface->lock = lock;
	lock_surface->surface = surface;
	lock_surface->output = output;
	wl_list_init(&lock_surface->configures);
	wl_signal_init(&lock_surface->events.map);
	wl_signal_init(&lock_surface->events.destroy);
	wl_resource_set_implementation(resource, &lock_surface_impl, lock_surface,
			lock_surface_handle_resource_destroy);
	fw_listener_connect(&lock_surface->surface_destroy,
			&surface->events.destroy, lock_surface_handle_surface_destroy);
	fw_listener_connect(&lock_surface->output_destroy, &output->events.destroy,
			lock_surface_handle_output_destroy);
	wl_list_insert(lock->surfaces.prev, &lock_surface->link);
	wl_signal_emit(&lock->events.new_surface, lock_surface);
}

static void lock_handle_destroy(
		struct wl_client *client, struct wl_resource *resource) {
	struct fw_session_lock *lock = lock_from_resource(resource);
	if (lock != NULL && lock->locked_sent && !lock->finished_sent) {
		wl_resource_post_error(resource,
				EXT_SESSION_LOCK_V1_ERROR_INVALID_DESTROY,
				"a locked session lock can only be unlocked and destroyed");
		return;
	}
	if (lock != NULL) {
		lock->cancelled = true;
	}
	wl_resource_destroy(resource);
}

static void lock_handle_unlock_and_destroy(
		struct wl_client *client, struct wl_resource *resource) {
	struct fw_session_lock *lock = lock_from_resource(resource);
	if (lock == NULL || !lock->locked_sent) {
		wl_resource_post_error(resource,
				EXT_SESSION_LOCK_V1_ERROR_INVALID_UNLOCK,
				"unlock_and_destroy before the locked event");
		return;
	}
	if (!lock->finished_sent) {
		wl_signal_emit(&lock->events.unlock, lock);
	}
	wl_resource_destroy(resource);
}

static const struct ext_session_lock_v1_interface lock_impl = {
		.destroy = lock_handle_destroy,
		.get_lock_surface = lock_handle_get_lock_surface,
		.unlock_and_destroy = lock_handle_unlock_and_destroy,
};

static void lock_handle_resource_destroy(struct wl_resource *resource) {
	struct fw_session_lock *lock = lock_from_resource(resource);
	if (lock == NULL) {
		return;
	}
	wl_signal_emit(&lock->events.destroy, lock);
	struct fw_session_lock_surface *lock_surface, *tmp;
	wl_list_for_each_safe(lock_surface, tmp, &lock->surfaces, link) {
		lock_surface_destroy(lock_surface);
	}
	free(lock);
}

void fw_session_lock_send_locked(struct fw_session_lock *lock) {
	if (lock->locked_sent || lock->finished_sent) {
		return;
	}
	lock->locked_sent = true;
	ext_session_lock_v1_send_locked(lock->resource);
}

void fw_session_lock_send_finished(struct fw_session_lock *lock) {
	if (lock->finished_sent) {
		return;
	}
	lock->finished_sent = true;
	ext_session_lock_v1_send_finished(lock->resource);
	/* Its surfaces will never show: make them inert now. */
	struct fw_session_lock_surface *lock_surface, *tmp;
	wl_list_for_each_safe(lock_surface, tmp, &lock->surfaces, link) {
		lock_surface_destroy(lock_surface);
	}
}

static void manager_handle_lock(
		struct wl_client *client, struct wl_resource *resource, uint32_t id) {
	struct fw_session_lock_manager *manager =
			wl_resource_get_user_data(resource);
	struct fw_session_lock *lock = calloc(1, sizeof(*lock));
	if (lock == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	lock->resource = wl_resource_create(client, &ext_session_lock_v1_interface,
			wl_resource_get_version(resource), id);
	if (lock->resource == NULL) {
		free(lock);
		wl_client_post_no_memory(client);
		return;
	}
	wl_list_init(&lock->surfaces);
	wl_signal_init(&lock->events.new_surface);
	wl_signal_init(&lock->events.unlock);
	wl_signal_init(&lock->events.destroy);
	wl_resource_set_implementation(
			lock->resource, &lock_impl, lock, lock_handle_resource_destroy);
	wl_signal_emit(&manager->events.new_lock, lock);
}

static const struct ext_session_lock_manager_v1_interface manager_impl = {
		.destroy = fw_resource_handle_destroy,
		.lock = manager_handle_lock,
};

static void manager_bind(
		struct wl_client *client, void *data, uint32_t version, uint32_t id) {
	fw_resource_bind(client, &ext_session_lock_manager_v1_interface, version,
			id, &manager_impl, data);
}

struct fw_session_lock_manager *fw_session_lock_manager_create(
		struct wl_display *display) {
	struct fw_session_lock_manager *manager = calloc(1, sizeof(*manager));
	if (manager == NULL) {
		return NULL;
	}
	wl_signal_init(&manager->events.new_lock);
	manager->global =
			wl_global_create(display, &ext_session_lock_manager_v1_interface,
					MANAGER_VERSION, manager, manager_bind);
	if (manager->global == NULL) {
		free(manager);
		return NULL;
	}
	return manager;
}

void fw_session_lock_manager_destroy(struct fw_session_lock_manager *manager) {
	if (manager == NULL) {
		return;
	}
	wl_global_destroy(manager->global);
	free(manager);
}
