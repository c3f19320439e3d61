#ifndef FAIRWAY_COMPOSITOR_SHELL_DECORATION_H
#define FAIRWAY_COMPOSITOR_SHELL_DECORATION_H

struct fw_server;

void fw_decoration_init(struct fw_server *server);

#endif
