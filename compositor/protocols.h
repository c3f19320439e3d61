#ifndef FAIRWAY_COMPOSITOR_PROTOCOLS_H
#define FAIRWAY_COMPOSITOR_PROTOCOLS_H

#include <stdbool.h>

struct fw_server;

/* Creates the globals that need no compositor policy. */
bool fw_protocols_init(struct fw_server *server);

#endif
