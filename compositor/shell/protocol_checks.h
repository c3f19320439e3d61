#ifndef FAIRWAY_COMPOSITOR_SHELL_PROTOCOL_CHECKS_H
#define FAIRWAY_COMPOSITOR_SHELL_PROTOCOL_CHECKS_H

struct fw_server;
struct fw_protocol_checks;

/*
 * The protocol errors wlroots 0.18 lets through or raises otherwise than
 * the protocols define them, raised as they do (protocol_checks.c lists
 * them). Create after the shells and the decoration managers, before any
 * client connects.
 */
struct fw_protocol_checks *fw_protocol_checks_create(struct fw_server *server);
/* Accepts NULL. */
void fw_protocol_checks_destroy(struct fw_protocol_checks *checks);

#endif
