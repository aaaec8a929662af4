/* Configuration from the environment (env.c), read once at start-up. */
#ifndef GMP_ENV_H
#define GMP_ENV_H



/* GMP_MAXPROCS, else GOMAXPROCS, else the CPUs of the affinity mask. */
int gmp_env_maxprocs(void);
/* GMPDEBUG's settings into gmp_debug. */
void gmp_env_debug(void);
/* GMP_TIMESLICE and GMP_PREEMPTSIG. */
void gmp_env_preempt(void);

#endif
