/* c9.h - class 9 (traps): counters that are 0 when idle; the first user
 * starts something, the last one stops something else, the object lives on */
#ifndef C9_H
#define C9_H

struct channel;
struct channel *channel_new(void);
int channel_subscribe(struct channel *c); /* -1 when full */
void channel_unsubscribe(struct channel *c);
unsigned int channel_starts(struct channel *c);
unsigned int channel_stops(struct channel *c);
void channel_free(struct channel *c);

struct monitor;
struct monitor *monitor_new(void);
int monitor_listen(struct monitor *m);
void monitor_unlisten(struct monitor *m);
unsigned int monitor_starts(struct monitor *m);
unsigned int monitor_stops(struct monitor *m);
void monitor_destroy(struct monitor *m);

struct watch;
struct watch *watch_new(void);
int watch_use(struct watch *w);
void watch_unuse(struct watch *w);
unsigned int watch_starts(struct watch *w);
unsigned int watch_stops(struct watch *w);
void watch_destroy(struct watch *w);

#endif
