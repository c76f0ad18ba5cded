/* GLib g_atomic_int (GstBus) */
struct bus { int type; gint ref_count; };
void bus_ref(struct bus *b) { g_atomic_int_inc(&b->ref_count); }
void bus_unref(struct bus *b)
{
	if (g_atomic_int_dec_and_test(&b->ref_count))
		bus_dispose(b);
}
