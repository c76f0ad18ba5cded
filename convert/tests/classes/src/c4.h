/* c4.h - class 4: functions whose declarations a parser may not read
 * (cleanup attributes behind macros) hold operations and creation stores */
#ifndef C4_H
#define C4_H

typedef struct conn conn;
conn *conn_new(void);
void conn_ref(conn *c);
void conn_unref(conn *c);
int conn_send(conn *c); /* holds a reference of its own meanwhile */

struct req;
struct req *req_new(const char *path);
struct req *req_dup(struct req *r);
void req_unref(struct req *r);

struct item;
struct item *item_new(void);
void item_ref(struct item *it);
void item_unref(struct item *it);
int item_peek(struct item *it); /* holds a reference of its own meanwhile */

#endif
