#ifndef FAIRWAY_COMPOSITOR_LOCK_GLOBAL_FILTER_H
#define FAIRWAY_COMPOSITOR_LOCK_GLOBAL_FILTER_H

/*
 * Which globals each client is shown, and may bind: the display's one
 * global filter.
 *
 * - The privileged globals (fw_config_privileged_global: screencopy,
 *   export-dmabuf, data-control, virtual input, input-method, foreign
 *   toplevel management and the foreign toplevel list, gamma, output management
 * and power, the session lock, the scheduler manager, the security context
 * manager) are shown to no client in a sandbox (fw_client_sandboxed: one that
 *   connected through a security context's listener, or an older
 *   Flatpak's) unless the configuration's "sandbox allow" names them for
 *   its engine and app id. The security context manager never is: a
 *   sandbox makes no sandbox of its own.
 * - fairway_scheduler_manager_v1 only to the clients
 *   fw_scheduler_protocol_may_manage accepts.
 * - While the session is locked, screencopy, export-dmabuf and
 *   data-control to no one (lock/capture.c stops what was bound before).
 */

struct fw_server;

void fw_global_filter_init(struct fw_server *server);
void fw_global_filter_finish(struct fw_server *server);

#endif
