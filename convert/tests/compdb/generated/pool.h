struct pool {
	int users;
};
#define POOL_USERS(p) ((p)->users)
void pool_get(struct pool *p);
void pool_put(struct pool *p);
