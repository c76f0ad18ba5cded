struct conn {
	int refs;
};
void conn_get(struct conn *c);
void conn_put(struct conn *c);
