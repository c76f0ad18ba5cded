struct source { int ref_count; void *data; };
void source_unref(struct source *s);
