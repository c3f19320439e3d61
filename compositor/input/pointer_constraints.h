#ifndef FAIRWAY_COMPOSITOR_INPUT_POINTER_CONSTRAINTS_H
#define FAIRWAY_COMPOSITOR_INPUT_POINTER_CONSTRAINTS_H

#include <stdbool.h>

struct fw_server;

/* Pointer locks and confinements (pointer-constraints-unstable-v1). */
bool fw_pointer_constraints_init(struct fw_server *server);
void fw_pointer_constraints_finish(struct fw_server *server);
/* Focus or a region changed: the constraint in force is picked again. */
void fw_pointer_constraints_update(struct fw_server *server);
/*
 * A relative motion of (*dx, *dy) is about to move the pointer: false while
 * a lock holds it, else true with the motion clamped to a confinement.
 */
bool fw_pointer_constraints_allow_motion(
		struct fw_server *server, double *dx, double *dy);

#endif
