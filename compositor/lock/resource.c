#include "compositor/lock/resource.h"

void fw_resource_handle_destroy(
		struct wl_client *client, struct wl_resource *resource) {
	wl_resource_destroy(resource);
}

void fw_resource_bind(struct wl_client *client,
		const struct wl_interface *interface, uint32_t version, uint32_t id,
		const void *impl, void *data) {
	struct wl_resource *resource =
			wl_resource_create(client, interface, (int)version, id);
	if (resource == NULL) {
		wl_client_post_no_memory(client);
		return;
	}
	wl_resource_set_implementation(resource, impl, data, NULL);
}
