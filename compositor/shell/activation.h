#ifndef FAIRWAY_COMPOSITOR_SHELL_ACTIVATION_H
#define FAIRWAY_COMPOSITOR_SHELL_ACTIVATION_H

/*
 * xdg-activation: which requests to bring a window to the front fairway
 * honours. Any client may mint a token for itself at any time, so a token
 * alone proves nothing; a request is honoured only with a token
 *
 * - that fairway issued itself, to a command it started (a binding's exec
 *   or terminal, an autostart line: $XDG_ACTIVATION_TOKEN), within
 *   FW_ACTIVATION_TOKEN_MS of its start; or
 * - that carries the seat and a recent input serial of the client that has
 *   the keyboard now: the user just acted in it (a link clicked in a
 *   terminal, a launcher), and it hands the focus on.
 *
 * Any other request marks the window urgent instead, as sway does: its
 * title bar says so until the user focuses it.
 */

struct fw_server;
struct fw_activation;

#define FW_ACTIVATION_TOKEN_MS 30000

/* The xdg_activation_v1 global and its policy; NULL on failure. */
struct fw_activation *fw_activation_create(struct fw_server *server);
/* Accepts NULL. */
void fw_activation_destroy(struct fw_activation *activation);

/*
 * A token for a command fairway is about to start, or NULL; valid for
 * FW_ACTIVATION_TOKEN_MS or until used, and owned by the activation.
 */
const char *fw_activation_issue(struct fw_activation *activation);

#endif
