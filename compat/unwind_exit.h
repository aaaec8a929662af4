/* pthread_exit and acted-on cancellation as a forced unwind of the
 * thread's stack through libgcc_s (unwind_exit.c), as NPTL's nptl/unwind.c.
 * The state of an unwind lives in the thread's own static TLS, so these
 * work on whichever thread calls them. */
#ifndef GMP_UNWIND_EXIT_H
#define GMP_UNWIND_EXIT_H

/* Where an unwind that reached the thread's entry ends up: the runtime's
 * end of a thread (set once, at start). */
void gmp_unwind_setfinish(void (*fn)(void *retval) __attribute__((noreturn)));
/* Loads libgcc_s; before a signal handler may need it. */
void gmp_unwind_load(void);
/* buf is the calling thread's bottom record (set up at its entry); a
 * landing there ends the thread with gmp_unwind_retval(). */
void gmp_unwind_entry(void *buf);
void *gmp_unwind_retval(void);
/* The initial thread: makes glibc's record under main lead to the finish
 * function instead of ending the OS thread.  Once main runs. */
void gmp_unwind_adopt_main(void);
/* Unwinds towards the record buf (NULL: the end of the stack). */
void gmp_unwind(void *buf) __attribute__((noreturn));
/* Marks the thread exiting with retval and unwinds from its innermost
 * cleanup record. */
void gmp_exit_unwind(void *retval) __attribute__((noreturn));

#endif
