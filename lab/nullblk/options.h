/* SPDX-License-Identifier: MIT */
/*
 * options.h: the engine's fio options, defined in options.c and given to
 * fio as ioengine.options by engine.c.  Needs fio's <fio.h> first.
 */
#ifndef NULLBLK_OPTIONS_H
#define NULLBLK_OPTIONS_H

/* null_blk's parameters and the engine's own, ending in a NULL name */
extern struct fio_option nb_options[];

#endif /* NULLBLK_OPTIONS_H */
