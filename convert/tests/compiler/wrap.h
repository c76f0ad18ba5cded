/* A one-member count type whose operations are out-of-line functions
 * (wrap.c): a unit that only calls them names no atomic primitive. */
typedef struct { int n; } ext_count_t;
int ext_dec(ext_count_t *c);
void ext_inc(ext_count_t *c);
