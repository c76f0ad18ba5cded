/* c10.h - class 10: the project's own reference count types */
#ifndef C10_H
#define C10_H

struct mixer;
struct mixer *mixer_new(void);
struct mixer *mixer_ref(struct mixer *m);
void mixer_unref(struct mixer *m);
struct sink;
struct sink *sink_new(void);
struct sink *sink_ref(struct sink *s);
void sink_unref(struct sink *s);

/* blobs owned by a store live on at 0 until the store lets go */
struct store;
struct blob;
struct store *store_new(void);
void store_destroy(struct store *st);
struct blob *blob_new(void);
void blob_ref(struct blob *b);
void blob_unref(struct blob *b);
void store_add(struct store *st, struct blob *b);
struct blob *store_find(struct store *st); /* a new reference */

struct route;
struct route *route_new(void);
void route_ref(struct route *r);
void route_unref(struct route *r);
struct hop;
struct hop *hop_new(void);
void hop_ref(struct hop *h);
void hop_unref(struct hop *h);
unsigned int route_lookups(void); /* statistics */

#endif
