/* c6.h - class 6: created at 0 by a zeroing allocator, the first reference
 * taken through the object's own get (which also serves live objects) */
#ifndef C6_H
#define C6_H

struct queue;
struct queue *queue_new(void);
struct queue *queue_ref(struct queue *q);
void queue_unref(struct queue *q);

struct stream;
struct stream *stream_new(void);
struct stream *stream_ref(struct stream *s);
void stream_unref(struct stream *s);

struct token;
struct token *token_new(void);
struct token *token_ref(struct token *t);
void token_unref(struct token *t);

struct evsrc;
struct evsrc *evsrc_new(void);
struct evsrc *evsrc_ref(struct evsrc *e);
void evsrc_unref(struct evsrc *e);

#endif
