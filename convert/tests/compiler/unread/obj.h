/* One struct declares the field; a checked-cast macro that takes the type
 * as an argument hides the type of a use from the spelled source, so the
 * field is keyed by its name alone (obj.c). */
struct obj { int type; int refcount; };
void *check_cast(void *p, int type_id);
#define CHECKED_CAST(x, id, T) ((T *)check_cast((x), (id)))
#define AS_OBJ(x) CHECKED_CAST((x), 1, struct obj)
