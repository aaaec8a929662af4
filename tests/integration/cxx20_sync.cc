// C++20 synchronisation as Debian 12's libstdc++ (GCC 12) implements it:
// std::barrier, std::latch, std::counting_semaphore and atomic wait/notify
// all end in syscall(SYS_futex) with plain (non-private) FUTEX_WAIT and
// FUTEX_WAKE on words in the program's own memory.  2 to 64 threads; under
// the shim they park as Gs (the kernel thread count stays at the runtime's
// few), at 1 P as at 2.
#include <atomic>
#include <barrier>
#include <chrono>
#include <cstdio>
#include <latch>
#include <semaphore>
#include <thread>
#include <vector>

#include "check.h"

static std::atomic<int> peak_threads{0};

static void note_threads()
{
	int n = kernel_threads();
	int old = peak_threads.load();
	while (n > old && !peak_threads.compare_exchange_weak(old, n))
		;
}

// Every thread adds its phase number each round; the completion checks
// that all did before anyone went on.
static bool barrier_rounds(int n, int rounds)
{
	std::atomic<long> sum{0};
	bool ok = true;
	int phase = 0;
	std::barrier sync(n, [&]() noexcept {
		phase++;
		if (sum.load() != (long)n * phase * (phase + 1) / 2)
			ok = false;
		note_threads();
	});
	std::vector<std::thread> ts;
	for (int i = 0; i < n; i++)
		ts.emplace_back([&]() {
			for (int r = 1; r <= rounds; r++) {
				sum += r;
				sync.arrive_and_wait();
			}
		});
	for (auto &t : ts)
		t.join();
	return ok && phase == rounds;
}

static bool latch_gate(int n)
{
	std::latch ready(n), go(1);
	std::atomic<int> passed{0};
	std::vector<std::thread> ts;
	for (int i = 0; i < n; i++)
		ts.emplace_back([&]() {
			ready.count_down();
			go.wait();
			passed++;
		});
	ready.wait();
	note_threads();
	bool none_early = passed.load() == 0;
	go.count_down();
	for (auto &t : ts)
		t.join();
	return none_early && passed.load() == n;
}

// At most 3 threads inside at once, checked by a counter.  Acquired with
// a timeout: libstdc++'s counting_semaphore can lose a wake-up when a
// release finds the count above zero while an acquire's exchange fails
// (GCC bug 98033, unfixed in GCC 12), and an untimed acquire may then
// sleep for good, natively too (a native run of this test hung once in
// 40 beside a CPU hog, where was not caught; none in 300 later).
static bool semaphore_limit(int n)
{
	std::counting_semaphore<3> sem(3);
	std::atomic<int> inside{0}, most{0};
	std::vector<std::thread> ts;
	for (int i = 0; i < n; i++)
		ts.emplace_back([&]() {
			for (int r = 0; r < 200; r++) {
				while (!sem.try_acquire_for(std::chrono::milliseconds(20)))
					;
				int k = ++inside;
				int m = most.load();
				while (k > m && !most.compare_exchange_weak(m, k))
					;
				if (r % 50 == 0)
					std::this_thread::yield();
				--inside;
				sem.release();
			}
		});
	for (auto &t : ts)
		t.join();
	return most.load() <= 3 && inside.load() == 0;
}

// A token passed around a ring with atomic wait/notify: thread i waits
// until turn == i.
static bool atomic_ring(int n, int laps)
{
	std::atomic<int> turn{0};
	std::atomic<long> moves{0};
	std::vector<std::thread> ts;
	for (int i = 0; i < n; i++)
		ts.emplace_back([&, i]() {
			for (int l = 0; l < laps; l++) {
				int t;
				while ((t = turn.load()) != i)
					turn.wait(t);
				moves++;
				if (i == 0 && l == 0)
					note_threads();
				turn.store((i + 1) % n);
				turn.notify_all();
			}
		});
	for (auto &t : ts)
		t.join();
	return moves.load() == (long)n * laps;
}

int main()
{
	for (int n : {2, 8, 64}) {
		char what[80];
		snprintf(what, sizeof what, "std::barrier, %d threads, 50 phases", n);
		CHECK(barrier_rounds(n, 50), what);
		snprintf(what, sizeof what, "std::latch, %d threads held then released", n);
		CHECK(latch_gate(n), what);
		snprintf(what, sizeof what, "std::counting_semaphore<3>, %d threads", n);
		CHECK(semaphore_limit(n), what);
		snprintf(what, sizeof what, "atomic wait/notify ring, %d threads", n);
		CHECK(atomic_ring(n, n > 8 ? 20 : 200), what);
	}
	// Natively each thread is a task; under the shim 64 waiting threads
	// are Gs on a handful of Ms.
	if (under_shim() && peak_threads.load() > 16) {
		fprintf(stderr, "peak kernel threads %d: waits blocked Ms\n", peak_threads.load());
		CHECK(0, "threads parked as Gs");
	}
	return failures != 0;
}
