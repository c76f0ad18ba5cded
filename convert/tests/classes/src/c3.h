/* c3.h - class 3: other libraries' atomics APIs (look-alikes, defined here) */
#ifndef C3_H
#define C3_H

struct bucket;
struct bucket *bucket_new(void);
void bucket_ref(struct bucket *b);
void bucket_unref(struct bucket *b);

struct texture;
struct texture *texture_new(void);
void texture_hold(struct texture *t, int n); /* takes n references */
void texture_unref(struct texture *t);

struct completion;
struct completion *completion_new(void);
void completion_get(struct completion *c);
void completion_put(struct completion *c);

#endif
