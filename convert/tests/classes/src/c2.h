/* c2.h - class 2: a macro that applies the primitive to its pointer argument */
#ifndef C2_H
#define C2_H

struct lamp;
struct lamp *lamp_new(void);
void lamp_ref(struct lamp *l);
void lamp_unref(struct lamp *l);

struct kettle;
struct kettle *kettle_new(void);
void kettle_ref(struct kettle *k);
void kettle_unref(struct kettle *k);

typedef struct apple apple;
typedef struct pear pear;
apple *apple_new(void);
apple *apple_ref(apple *a);
void apple_unref(apple *a);
pear *pear_new(void);
pear *pear_ref(pear *p);
void pear_unref(pear *p);

#endif
