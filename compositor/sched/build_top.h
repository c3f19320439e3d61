#ifndef FAIRWAY_COMPOSITOR_SCHED_BUILD_TOP_H
#define FAIRWAY_COMPOSITOR_SCHED_BUILD_TOP_H

#include <stdbool.h>

/*
 * The fairway-top built beside the running fairway: a fairway run from a
 * meson build tree (BUILD/compositor/fairway, as `make run` runs it)
 * trusts that tree's BUILD/clients/fairway-top as it trusts the installed
 * one. Returns the path to free, or NULL when fairway runs from no build
 * tree.
 */
char *fw_build_top_path(void);

/*
 * Whether client_path is that fairway-top (top: fw_build_top_path's) and
 * still one to trust: it and the folders down to it from the build tree
 * belong to fairway's user or root and no one else may write them.
 */
bool fw_build_top_trusted(const char *top, const char *client_path);

#endif
