#ifndef FAIRWAY_COMPOSITOR_INPUT_INPUT_CONFIG_H
#define FAIRWAY_COMPOSITOR_INPUT_INPUT_CONFIG_H

#include <stdbool.h>

struct fw_keyboard;
struct fw_server;
struct wlr_input_device;

/*
 * The configuration file's keyboard and pointer lines, applied to each
 * device as it comes and to all of them on a reload. Virtual keyboards
 * bring their own keymap and only get the repeat rate; pointer settings
 * are libinput's, so they apply to libinput devices only (not to nested,
 * headless or virtual pointers).
 */
void fw_input_config_keyboard(
		struct fw_server *server, struct fw_keyboard *keyboard);
/* The seat's keyboard while no device has one gets the file's keymap. */
bool fw_input_config_default_keyboard(struct fw_server *server);
/* Configures a new pointer, and keeps a libinput one for reloads. */
void fw_input_config_add_pointer(
		struct fw_server *server, struct wlr_input_device *device);
void fw_input_config_reload(struct fw_server *server);

#endif
