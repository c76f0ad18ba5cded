/* c1.h - class 1: the primitive behind a wrapper that returns nothing */
#ifndef C1_H
#define C1_H

struct widget;
struct widget *widget_new(void);
void widget_ref(struct widget *w);
void widget_unref(struct widget *w);

struct gadget;
struct gadget *gadget_new(void);
void gadget_ref(struct gadget *g);
void gadget_unref(struct gadget *g);

struct sprite;
struct sprite *sprite_new(void);
void sprite_ref(struct sprite *s);
void sprite_unref(struct sprite *s);

#endif
