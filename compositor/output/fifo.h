#ifndef FAIRWAY_COMPOSITOR_OUTPUT_FIFO_H
#define FAIRWAY_COMPOSITOR_OUTPUT_FIFO_H

struct fw_server;
struct fw_output;

/*
 * wp_fifo_v1: a commit that waits for the surface's fifo barrier is held
 * (as a cached state of its surface) until a paint of an output that shows
 * the surface latched the commit that set the barrier: one per refresh.
 */
struct fw_fifo_manager;

struct fw_fifo_manager *fw_fifo_manager_create(struct fw_server *server);
/* After every client is gone. Accepts NULL. */
void fw_fifo_manager_destroy(struct fw_fifo_manager *manager);
/*
 * A paint of output took what the surfaces it shows have committed (or
 * found nothing to paint at its refresh): their barriers clear, and the
 * commits that waited on them are applied, for a later paint. Accepts
 * NULL.
 */
void fw_fifo_manager_output_latched(
		struct fw_fifo_manager *manager, struct fw_output *output);

#endif
