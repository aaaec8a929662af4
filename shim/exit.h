/* A G's end (exit.c): what NPTL's start_thread does after the thread
 * function returns or an exit's unwind reached the thread's entry. */
#ifndef GMP_EXIT_H
#define GMP_EXIT_H

/* On the exiting G: thread_local and key destructors, robust mutexes, and
 * the G is gone; the last one ends the process. */
void gmp_thread_exit(void *retval) __attribute__((noreturn));

#endif
