/* A thread stopped anywhere in its own code must get every register back:
 * general-purpose, the vector registers (SSE/AVX; aarch64's NEON), the x87
 * stack (aarch64: long double is software quad precision), and the
 * rounding modes (MXCSR and the x87 control word; aarch64's FPCR).  Each worker runs a long chain of
 * floating-point and vector arithmetic whose result depends on all of
 * them, under a rounding mode of its own, and compares it with the same
 * chain computed by main before any thread existed.  Run with one P and
 * a 1 ms slice, every worker is preempted many times mid-chain. */
#include <fenv.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>

#include "check.h"

#define WORKERS 4
#define STEPS test_work(30000000L)

typedef double v4d __attribute__((vector_size(32)));
typedef int32_t v8i __attribute__((vector_size(32)));

static const int modes[WORKERS] = { FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO };

struct sums {
	double d;
	long double ld;
	uint64_t v;
};

__attribute__((noinline)) static struct sums chain(int mode, long steps)
{
	fesetround(mode);
	v4d acc = { 1.0, 2.0, 3.0, 4.0 }, mul = { 1.0000001, 0.9999999, 1.0000003, 0.9999997 };
	v8i iv = { 1, 2, 3, 4, 5, 6, 7, 8 }, inc = { 7, 11, 13, 17, 19, 23, 29, 31 };
	double d = 0.1;
	long double ld = 1.0L;
	for (long i = 0; i < steps; i++) {
		acc = acc * mul + 1e-9;
		iv = (iv * 1103515245 + inc) ^ (iv >> 7);
		d = d / 3.0 + 0.7;     /* inexact: the rounding mode shows */
		ld = ld * 1.0000001L + 1e-12L;
	}
	struct sums s = { acc[0] + acc[1] + acc[2] + acc[3] + d, ld, 0 };
	for (int k = 0; k < 8; k++)
		s.v = s.v * 31 + (uint32_t)iv[k];
	fesetround(FE_TONEAREST);
	return s;
}

/* The same idea in 512-bit registers, where the CPU has them: a resumed
 * thread must get all 32 zmm registers and the mask registers back. */
typedef double v8d __attribute__((vector_size(64)));

#if defined(__x86_64__)
#define HAVE512() __builtin_cpu_supports("avx512f")
#define TARGET512 __attribute__((target("avx512f")))
#else
#define HAVE512() 0
#define TARGET512
#endif

TARGET512 __attribute__((noinline)) static double chain512(long steps)
{
	v8d acc = { 1, 2, 3, 4, 5, 6, 7, 8 }, mul = { 1.0000001, 0.9999999, 1.0000003, 0.9999997,
						     1.0000002, 0.9999998, 1.0000004, 0.9999996 };
	for (long i = 0; i < steps; i++)
		acc = acc * mul + 1e-9;
	double s = 0;
	for (int k = 0; k < 8; k++)
		s += acc[k];
	return s;
}

static int have512;
static double expect512, got512[WORKERS];

static struct sums expect[WORKERS], got[WORKERS];
static volatile int started, finished, overlapped;

static void *worker(void *arg)
{
	long i = (long)arg;
	__atomic_add_fetch(&started, 1, __ATOMIC_SEQ_CST);
	got[i] = chain(modes[i], STEPS);
	if (have512)
		got512[i] = chain512(STEPS / 2);
	/* The first to finish has seen every other start: the chains ran
	 * interleaved, so each was stopped and resumed along the way. */
	if (__atomic_add_fetch(&finished, 1, __ATOMIC_SEQ_CST) == 1)
		overlapped = __atomic_load_n(&started, __ATOMIC_SEQ_CST) == WORKERS;
	return NULL;
}

int main(void)
{
	for (int i = 0; i < WORKERS; i++)
		expect[i] = chain(modes[i], STEPS);
	have512 = HAVE512();
	if (have512)
		expect512 = chain512(STEPS / 2);
	pthread_t t[WORKERS];
	for (long i = 0; i < WORKERS; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);
	CHECK(overlapped, "all workers were under way before the first finished");
	for (int i = 0; i < WORKERS; i++) {
		char what[80];
		snprintf(what, sizeof what, "worker %d (rounding mode %d): vector, x87 and scalar sums", i, i);
		CHECK(got[i].d == expect[i].d && got[i].ld == expect[i].ld && got[i].v == expect[i].v, what);
	}
	int same512 = 1;
	for (int i = 0; i < WORKERS; i++)
		same512 &= !have512 || got512[i] == expect512;
	CHECK(same512, "AVX-512 sums (where the CPU has AVX-512)");
	return failures != 0;
}
