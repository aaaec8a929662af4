/* A malloc of the program's own that serialises with a pthread mutex, as
 * jemalloc (redis-server's) does, and a constructor that allocates: being
 * a dependency of the program, it is initialised before the preloaded
 * shim, so its first malloc is the program's first call into the shim.
 * The runtime's own start-up then allocates through it, and so do the
 * runtime's threads that are no G (glibc's pthread_create allocates a DTV
 * for each new M). */
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>

void *__libc_malloc(size_t);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);
void __libc_free(void *);

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long calls;

static void enter(void)
{
	if (pthread_mutex_trylock(&lock) != 0)
		pthread_mutex_lock(&lock);
	calls++;
}

static void leave(void)
{
	pthread_mutex_unlock(&lock);
}

#define LOCKED(expr)                                                                               \
	do {                                                                                       \
		enter();                                                                           \
		__typeof__(expr) r_ = (expr);                                                      \
		leave();                                                                           \
		return r_;                                                                         \
	} while (0)

void *malloc(size_t n) { LOCKED(__libc_malloc(n)); }
void *calloc(size_t a, size_t b) { LOCKED(__libc_calloc(a, b)); }
void *realloc(void *p, size_t n) { LOCKED(__libc_realloc(p, n)); }
void *memalign(size_t a, size_t n) { LOCKED(__libc_memalign(a, n)); }
void *aligned_alloc(size_t a, size_t n) { LOCKED(__libc_memalign(a, n)); }

int posix_memalign(void **out, size_t a, size_t n)
{
	void *p = memalign(a, n);
	if (p == NULL)
		return 12; /* ENOMEM */
	*out = p;
	return 0;
}

void free(void *p)
{
	enter();
	__libc_free(p);
	leave();
}

long locking_malloc_calls(void)
{
	enter();
	long n = calls;
	leave();
	return n;
}

__attribute__((constructor)) static void early(void)
{
	free(malloc(100));
}
