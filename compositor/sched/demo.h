#ifndef FAIRWAY_COMPOSITOR_SCHED_DEMO_H
#define FAIRWAY_COMPOSITOR_SCHED_DEMO_H

struct fw_server;

struct fw_demo *fw_demo_create(struct fw_server *server);
/* Sends SIGTERM to the demo clients; destroy reaps them. */
void fw_demo_terminate(struct fw_demo *demo);
void fw_demo_destroy(struct fw_demo *demo);

#endif
