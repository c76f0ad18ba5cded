/* c5.h - class 5: a count declared in a comma list or as a bitfield */
#ifndef C5_H
#define C5_H

struct tag;
struct tag *tag_new(void);
void tag_ref(struct tag *t);
void tag_unref(struct tag *t);
struct label;
struct label *label_new(void);
void label_ref(struct label *l);
void label_unref(struct label *l);

struct shelf;
struct shelf *shelf_new(void);
void shelf_ref(struct shelf *s);
void shelf_unref(struct shelf *s);
struct book;
struct book *book_new(void);
void book_ref(struct book *b);
void book_unref(struct book *b);

struct closure;
struct closure *closure_new(void);
void closure_ref(struct closure *c);
void closure_unref(struct closure *c);

#endif
