/* c8.h - class 8: the new value kept in a variable, tested, and passed to
 * a trace hook */
#ifndef C8_H
#define C8_H

typedef void trace_fn(const void *obj, int refs);

struct session;
void session_set_trace(trace_fn *fn);
struct session *session_new(void);
void session_ref(struct session *s);
void session_unref(struct session *s);

struct layer;
void layer_set_trace(trace_fn *fn);
struct layer *layer_new(void);
void layer_ref(struct layer *l);
void layer_unref(struct layer *l);

struct peer;
void peer_set_trace(trace_fn *fn);
struct peer *peer_new(void);
void peer_ref(struct peer *p);
void peer_unref(struct peer *p);

#endif
