#ifndef FAIRWAY_COMPOSITOR_INPUT_BINDINGS_H
#define FAIRWAY_COMPOSITOR_INPUT_BINDINGS_H

#include <stdbool.h>
#include <stdint.h>

struct fw_server;

/* True when the key combination was a compositor binding. */
bool fw_bindings_handle(
		struct fw_server *server, uint32_t modifiers, uint32_t keysym);

#endif
