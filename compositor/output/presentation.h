#ifndef FAIRWAY_COMPOSITOR_OUTPUT_PRESENTATION_H
#define FAIRWAY_COMPOSITOR_OUTPUT_PRESENTATION_H

#include <stdint.h>

struct fw_output;

void fw_presentation_init(struct fw_output *output);
void fw_presentation_finish(struct fw_output *output);
/* Takes the feedback of the surfaces about to be shown by the next commit. */
void fw_presentation_sample(struct fw_output *output);
/* The frame that commit_seq would have been was dropped unseen: its
 * feedback is discarded. */
void fw_presentation_discard(struct fw_output *output, uint32_t commit_seq);
/*
 * The earliest time a frame whose paint begins at now_ns can be shown: the
 * next vblank where the output reports them, else now_ns (headless and
 * nested outputs without vblanks show a frame when it is committed).
 */
int64_t fw_presentation_next_ns(struct fw_output *output, int64_t now_ns);
/*
 * The earliest time a paint may begin for fw_presentation_next_ns to be at
 * or after target_ns.
 */
int64_t fw_presentation_wake_ns(struct fw_output *output, int64_t target_ns);
/* The output's refresh period as its presentation feedback reports it; 0:
 * unknown or variable. */
int64_t fw_presentation_refresh_ns(struct fw_output *output);

#endif
