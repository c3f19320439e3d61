#ifndef FAIRWAY_COMPOSITOR_SHELL_DIALOG_H
#define FAIRWAY_COMPOSITOR_SHELL_DIALOG_H

#include <stdbool.h>

struct fw_server;
struct wlr_xdg_toplevel;

/*
 * xdg-dialog-v1, which wlroots 0.18 has no helper for: a client says which
 * of its toplevels are dialogs, and which of those are modal. A modal
 * dialog stays above its parent and takes its focus (shell/view.c).
 */
struct fw_dialogs;

/* The xdg_wm_dialog_v1 global. NULL on failure. */
struct fw_dialogs *fw_dialog_create(struct fw_server *server);
/* Accepts NULL. */
void fw_dialog_destroy(struct fw_dialogs *dialogs);

/* Whether the client marked toplevel as a modal dialog (false for NULL). */
bool fw_dialog_is_modal(
		struct fw_dialogs *dialogs, struct wlr_xdg_toplevel *toplevel);

#endif
