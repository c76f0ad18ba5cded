/* c7.h - class 7: a public get that the tree itself calls only on fresh
 * objects; applications call it on live ones */
#ifndef C7_H
#define C7_H

#include <stdatomic.h>

struct capture;
struct capture *capture_open(const char *dev);
struct capture *capture_open_default(void);
struct capture *capture_ref(struct capture *c);
void capture_unref(struct capture *c);

struct handle;
struct handle *handle_new(int kind);
void handle_get(struct handle *h);
void handle_put(struct handle *h);

/* a pipe's count is public: PIPE_REF is the get applications use */
struct pipe {
	atomic_uint refs;
	int ends[2];
};
#define PIPE_REF(p)                                                            \
	(atomic_fetch_add_explicit(&(p)->refs, 1, memory_order_relaxed), (p))
struct pipe *pipe_new(void);
void pipe_unref(struct pipe *p);

#endif
