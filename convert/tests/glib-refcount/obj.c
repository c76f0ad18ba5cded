/* GLib's refcount type */
struct thing { gatomicrefcount ref; };
void thing_ref(struct thing *t) { g_atomic_ref_count_inc(&t->ref); }
void thing_unref(struct thing *t)
{
	if (g_atomic_ref_count_dec(&t->ref))
		thing_release(t);
}
