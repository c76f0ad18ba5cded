/* A count that only the Windows build has: the Win32 Interlocked family
 * (new value), under #ifdef _WIN32, which a Linux compile database never
 * compiles.  The other branch has no count and must keep building. */
#ifdef _WIN32
#include <windows.h>
#endif
#include <stdlib.h>

struct handle {
	char *path;
#ifdef _WIN32
	LONG users;
#endif
	int flags;
};

struct handle *handle_new(const char *path)
{
	struct handle *h = malloc(sizeof(*h));

	if (!h)
		return NULL;
	h->path = NULL;
	h->flags = 0;
#ifdef _WIN32
	h->users = 1;
#endif
	(void)path;
	return h;
}

struct handle *handle_get(struct handle *h)
{
#ifdef _WIN32
	InterlockedIncrement(&h->users);
#endif
	return h;
}

void handle_put(struct handle *h)
{
#ifdef _WIN32
	if (InterlockedDecrement(&h->users) == 0) {
		free(h->path);
		free(h);
	}
#else
	free(h->path);
	free(h);
#endif
}

#ifdef _WIN32
/* Not a reference count: work in flight, signalled when it drains; the
 * pool is freed elsewhere.  Never converted. */
struct pool {
	LONG busy;
	HANDLE idle;
};

void pool_start(struct pool *p)
{
	InterlockedIncrement(&p->busy);
}

void pool_done(struct pool *p)
{
	if (InterlockedDecrement(&p->busy) == 0)
		SetEvent(p->idle);
}
#endif
