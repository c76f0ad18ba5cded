/* Two structs with a field of one name; a checked-cast macro that takes
 * the type as an argument hides the type of a use from the spelled source
 * (read.c). */
struct gobj { int ref_count; int flags; };
void *check_cast(void *p, int type_id);
#define CHECKED_CAST(x, id, T) ((T *)check_cast((x), (id)))
#define AS_OBJ(x) CHECKED_CAST((x), 1, struct gobj)
void obj_unref(struct gobj *o);
