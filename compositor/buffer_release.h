#ifndef FAIRWAY_COMPOSITOR_BUFFER_RELEASE_H
#define FAIRWAY_COMPOSITOR_BUFFER_RELEASE_H

struct fw_server;

/* Makes every surface release its wl_shm buffers right after a commit. */
void fw_buffer_release_init(struct fw_server *server);
void fw_buffer_release_finish(struct fw_server *server);

#endif
