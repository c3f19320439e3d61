#ifndef FAIRWAY_COMPOSITOR_OUTPUT_DRI_H
#define FAIRWAY_COMPOSITOR_OUTPUT_DRI_H

#include <stdbool.h>

/*
 * Whether /dev/dri holds a node whose name starts with prefix ("card" for
 * a display, "renderD" for a render node): what the DRM backend and a
 * client's GPU rendering need.
 */
bool fw_dri_has_node(const char *prefix);

#endif
