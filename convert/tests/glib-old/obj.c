/* GLib, old value (GstMiniObject) */
struct mini { gint refcount; };
void mini_ref(struct mini *m) { g_atomic_int_add(&m->refcount, 1); }
void mini_unref(struct mini *m)
{
	if (g_atomic_int_add(&m->refcount, -1) == 1)
		mini_free(m);
}
