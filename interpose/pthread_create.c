#include <errno.h>
#include <pthread.h>

#include "export.h"
#include "shim/runtime.h"

int gmp_newthread(struct g **out, size_t stacksize, size_t guardsize, void *ustack, size_t usize,
		  bool detached, void *(*start)(void *), void *arg);

#pragma GCC diagnostic ignored "-Wdeprecated-declarations"

GMP_EXPORT int pthread_create(pthread_t *thread, const pthread_attr_t *attr, void *(*start)(void *),
			      void *arg)
{
	gmp_ensure_init();
	pthread_attr_t def;
	if (attr == NULL) {
		if (pthread_getattr_default_np(&def) != 0)
			return EAGAIN;
		attr = &def;
	}
	int detach = PTHREAD_CREATE_JOINABLE;
	size_t stacksize = 0, guardsize = 0;
	void *stacktop = NULL;
	pthread_attr_getdetachstate(attr, &detach);
	pthread_attr_getstacksize(attr, &stacksize);
	pthread_attr_getguardsize(attr, &guardsize);
	pthread_attr_getstackaddr(attr, &stacktop); /* NULL unless set */
	if (attr == &def)
		pthread_attr_destroy(&def);
	if (stacksize == 0)
		stacksize = gmp_default_stacksize();

	struct g *gp;
	int err = gmp_newthread(&gp, stacksize, guardsize, stacktop ? (char *)stacktop - stacksize : NULL,
				stacktop ? stacksize : 0, detach == PTHREAD_CREATE_DETACHED, start, arg);
	if (err == 0)
		*thread = (pthread_t)gp->tcb;
	return err;
}
