/* Credential changes (setuid and its family) from any G, setxid.c. */
#ifndef GMP_SETXID_H
#define GMP_SETXID_H

/* Runs call(arg), one of glibc's set*id functions, so that glibc's
 * broadcast reaches every kernel thread of the process and returns;
 * *err gets the errno call left (call stores it there itself). */
int gmp_setxid(int (*call)(void *arg, int *err), void *arg, int *err);

#endif
