/* track.h - the live objects of every fixture: each created once, destroyed once */
#ifndef TRACK_H
#define TRACK_H

#include <stdbool.h>

void track_born(const void *obj); /* aborts if obj is already alive */
void track_gone(const void *obj); /* aborts if obj is not alive */
bool track_alive(const void *obj);
unsigned long track_count(void); /* objects alive now */

#endif
