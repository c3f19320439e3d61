#include "compositor/input/input_config.h"
#include "compositor/config/config.h"
#include "compositor/input/keyboard.h"
#include "compositor/listener.h"
#include "compositor/server.h"
#include <libinput.h>
#include <stdlib.h>
#include <wlr/backend/libinput.h>
#include <wlr/types/wlr_input_device.h>
#include <wlr/types/wlr_keyboard.h>
#include <wlr/types/wlr_keyboard_group.h>
#include <wlr/types/wlr_virtual_keyboard_v1.h>
#include <wlr/util/log.h>
#include <xkbcommon/xkbcommon.h>

/* A libinput pointer or touchpad, remembered so a reload reaches it. */
struct fw_pointer {
	struct wlr_input_device *device;
	struct wl_listener destroy;
	struct wl_list link; /* fw_server.pointers */
};

/* The keymap the file asks for, else the default one. */
static struct xkb_keymap *compile_keymap(const struct fw_input_config *input) {
	struct xkb_context *context = xkb_context_new(XKB_CONTEXT_NO_FLAGS);
	if (context == NULL) {
		return NULL;
	}
	struct xkb_keymap *keymap = fw_config_keymap(input, context);
	if (keymap == NULL) {
		/* The parser compiled it already; the files may have changed. */
		wlr_log(WLR_ERROR,
				"Cannot compile the configured keymap (layout "
				"%s): using the default one",
				input->xkb_layout != NULL ? input->xkb_layout : "default");
		keymap = xkb_keymap_new_from_names(
				context, NULL, XKB_KEYMAP_COMPILE_NO_FLAGS);
	}
	xkb_context_unref(context);
	return keymap;
}

static void configure_keyboard(struct fw_keyboard *keyboard,
		const struct fw_input_config *input, struct xkb_keymap *keymap) {
	struct wlr_keyboard *wlr_keyboard = keyboard->wlr_keyboard;
	/* Virtual keyboards bring their own keymap over the protocol. */
	if (wlr_input_device_get_virtual_keyboard(&wlr_keyboard->base) == NULL) {
		if (keymap != NULL) {
			wlr_keyboard_set_keymap(wlr_keyboard, keymap);
		} else {
			wlr_log(WLR_ERROR, "No keymap for %s",
					wlr_keyboard->base.name != NULL ? wlr_keyboard->base.name
													: "a keyboard");
		}
	}
	wlr_keyboard_set_repeat_info(
			wlr_keyboard, input->repeat_rate, input->repeat_delay);
}

/* The seat's own keyboard (default_keyboard.c) follows the file too. */
static bool configure_default_keyboard(struct fw_server *server,
		const struct fw_input_config *input, struct xkb_keymap *keymap) {
	if (server->default_keyboard == NULL) {
		return true;
	}
	struct wlr_keyboard *keyboard = &server->default_keyboard->keyboard;
	if (keymap == NULL || !wlr_keyboard_set_keymap(keyboard, keymap)) {
		return false;
	}
	wlr_keyboard_set_repeat_info(
			keyboard, input->repeat_rate, input->repeat_delay);
	return true;
}

bool fw_input_config_default_keyboard(struct fw_server *server) {
	struct xkb_keymap *keymap = compile_keymap(&server->config.input);
	bool ok = configure_default_keyboard(server, &server->config.input, keymap);
	xkb_keymap_unref(keymap);
	return ok;
}

void fw_input_config_keyboard(
		struct fw_server *server, struct fw_keyboard *keyboard) {
	struct xkb_keymap *keymap = NULL;
	if (wlr_input_device_get_virtual_keyboard(&keyboard->wlr_keyboard->base) ==
			NULL) {
		keymap = compile_keymap(&server->config.input);
	}
	configure_keyboard(keyboard, &server->config.input, keymap);
	xkb_keymap_unref(keymap);
}

static void configure_pointer(
		struct libinput_device *device, const struct fw_input_config *input) {
	if (libinput_device_config_accel_is_available(device)) {
		libinput_device_config_accel_set_speed(device,
				input->has_accel
						? input->accel
						: libinput_device_config_accel_get_default_speed(
								  device));
		enum libinput_config_accel_profile profile =
				libinput_device_config_accel_get_default_profile(device);
		if (input->accel_profile >= 0) {
			profile = input->accel_profile == 0
					? LIBINPUT_CONFIG_ACCEL_PROFILE_FLAT
					: LIBINPUT_CONFIG_ACCEL_PROFILE_ADAPTIVE;
		}
		if (libinput_device_config_accel_get_profiles(device) & profile) {
			libinput_device_config_accel_set_profile(device, profile);
		}
	}
	if (libinput_device_config_tap_get_finger_count(device) > 0) {
		enum libinput_config_tap_state tap = input->tap < 0
				? libinput_device_config_tap_get_default_enabled(device)
				: input->tap ? LIBINPUT_CONFIG_TAP_ENABLED
							 : LIBINPUT_CONFIG_TAP_DISABLED;
		libinput_device_config_tap_set_enabled(device, tap);
	}
	if (libinput_device_config_scroll_has_natural_scroll(device)) {
		int natural = input->natural_scroll < 0
				? libinput_device_config_scroll_get_default_natural_scroll_enabled(
						  device)
				: input->natural_scroll;
		libinput_device_config_scroll_set_natural_scroll_enabled(
				device, natural);
	}
}

static void handle_pointer_destroy(struct wl_listener *listener, void *data) {
	struct fw_pointer *pointer = wl_container_of(listener, pointer, destroy);
	wl_list_remove(&pointer->destroy.link);
	wl_list_remove(&pointer->link);
	free(pointer);
}

void fw_input_config_add_pointer(
		struct fw_server *server, struct wlr_input_device *device) {
	if (!wlr_input_device_is_libinput(device)) {
		return;
	}
	struct fw_pointer *pointer = calloc(1, sizeof(*pointer));
	if (pointer == NULL) {
		return;
	}
	pointer->device = device;
	fw_listener_connect(
			&pointer->destroy, &device->events.destroy, handle_pointer_destroy);
	wl_list_insert(&server->pointers, &pointer->link);
	configure_pointer(
			wlr_libinput_get_device_handle(device), &server->config.input);
}

void fw_input_config_reload(struct fw_server *server) {
	const struct fw_input_config *input = &server->config.input;
	struct xkb_keymap *keymap = compile_keymap(input);
	struct fw_keyboard *keyboard;
	wl_list_for_each(keyboard, &server->keyboards, link) {
		configure_keyboard(keyboard, input, keymap);
	}
	configure_default_keyboard(server, input, keymap);
	xkb_keymap_unref(keymap);
	struct fw_pointer *pointer;
	wl_list_for_each(pointer, &server->pointers, link) {
		configure_pointer(
				wlr_libinput_get_device_handle(pointer->device), input);
	}
}
