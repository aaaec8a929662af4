// C++ threads: std::thread, thread_local objects with non-trivial
// destructors (each must run exactly once per thread, before join
// returns), std::mutex, a bounded producer/consumer queue on two
// std::condition_variables with untimed waits (a lost wake-up hangs, a
// lost or doubled item breaks the checksum), a timed wait that must time
// out, and std::call_once from many threads.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdint>
#include <deque>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

static int failures;
static void check(bool ok, const char *what)
{
	std::printf("%-60s %s\n", what, ok ? "ok" : "FAILED");
	failures += !ok;
}

constexpr int kMaxThreads = 64;
static std::atomic<int> constructed{0};
static std::atomic<int> destroyed_by[kMaxThreads];

struct PerThread {
	int id = -1;
	std::string name; // heap-backed for long names: a real destructor
	std::vector<int> history;
	PerThread() { constructed++; }
	~PerThread()
	{
		if (id == -1) // main's copy, destroyed by exit()
			return;
		if (id >= 0 && id < kMaxThreads && name == "consumer-thread-number-" + std::to_string(id) &&
		    history.size() == 3)
			destroyed_by[id]++;
		else
			std::fprintf(stderr, "thread_local destroyed with foreign contents (id %d)\n", id);
	}
};
static thread_local PerThread per_thread;
static thread_local int tl_plain = 7;

int main()
{
	for (auto &d : destroyed_by)
		d = 0;

	// A bounded queue: producers wait for room, consumers for items.
	constexpr int kProducers = 4, kConsumers = 8;
	constexpr long kItems = 20000; // per producer
	constexpr size_t kCap = 64;
	std::mutex mu;
	std::condition_variable not_empty, not_full;
	std::deque<long> queue;
	int producers_left = kProducers;
	std::atomic<uint64_t> sum{0}, sum_sq{0};
	std::atomic<long> taken{0};
	std::atomic<int> tl_bad{0};
	std::vector<std::thread::id> ids(kConsumers);

	std::vector<std::thread> consumers;
	for (int i = 0; i < kConsumers; i++)
		consumers.emplace_back([&, i] {
			per_thread.id = i;
			per_thread.name = "consumer-thread-number-" + std::to_string(i);
			per_thread.history.push_back(i);
			ids[i] = std::this_thread::get_id();
			if (tl_plain != 7)
				tl_bad++;
			tl_plain = 100 + i;
			long mine = 0;
			for (;;) {
				std::unique_lock<std::mutex> lock(mu);
				not_empty.wait(lock, [&] { return !queue.empty() || producers_left == 0; });
				if (queue.empty())
					break;
				long v = queue.front();
				queue.pop_front();
				not_full.notify_one();
				lock.unlock();
				sum += (uint64_t)v;
				sum_sq += (uint64_t)v * (uint64_t)v;
				mine++;
				if (per_thread.id != i || tl_plain != 100 + i)
					tl_bad++;
			}
			taken += mine;
			per_thread.history.push_back(1);
			per_thread.history.push_back(2);
		});
	std::vector<std::thread> producers;
	for (int p = 0; p < kProducers; p++)
		producers.emplace_back([&, p] {
			for (long k = 0; k < kItems; k++) {
				long v = p * kItems + k + 1;
				std::unique_lock<std::mutex> lock(mu);
				not_full.wait(lock, [&] { return queue.size() < kCap; });
				queue.push_back(v);
				not_empty.notify_one();
			}
			std::lock_guard<std::mutex> lock(mu);
			if (--producers_left == 0)
				not_empty.notify_all();
		});
	for (auto &t : producers)
		t.join();
	bool dtor_after_each_join = true;
	for (int i = 0; i < kConsumers; i++) {
		consumers[i].join();
		dtor_after_each_join &= destroyed_by[i] == 1;
	}

	uint64_t n = (uint64_t)kProducers * kItems, want = n * (n + 1) / 2, want_sq = n * (n + 1) * (2 * n + 1) / 6;
	check(taken == (long)n && sum == want && sum_sq == want_sq,
	      "bounded producer/consumer: every item taken exactly once");
	check(tl_bad == 0, "thread_local values private to each thread");
	check(std::set<std::thread::id>(ids.begin(), ids.end()).size() == (size_t)kConsumers &&
		      ids[0] != std::this_thread::get_id(),
	      "std::this_thread::get_id distinct");
	check(dtor_after_each_join, "thread_local destructor done when join returns");
	bool exactly_once = true;
	for (int i = 0; i < kMaxThreads; i++)
		exactly_once &= destroyed_by[i] == (i < kConsumers ? 1 : 0);
	check(exactly_once && constructed == kConsumers,
	      "thread_local constructed and destroyed once per using thread");
	check(per_thread.id == -1 && tl_plain == 7, "main's thread_local objects untouched");

	// A timed wait nobody notifies times out, with the lock held again.
	{
		std::unique_lock<std::mutex> lock(mu);
		auto t0 = std::chrono::steady_clock::now();
		bool got = not_empty.wait_for(lock, std::chrono::milliseconds(20), [] { return false; });
		auto waited = std::chrono::steady_clock::now() - t0;
		check(!got && waited >= std::chrono::milliseconds(20) && lock.owns_lock(),
		      "condition_variable::wait_for times out after the interval");
	}

	// call_once from many threads at once: one call, and everyone waits for it.
	std::once_flag once;
	std::atomic<int> calls{0}, saw_done{0};
	std::atomic<bool> done{false};
	std::vector<std::thread> racers;
	for (int i = 0; i < 32; i++)
		racers.emplace_back([&] {
			std::call_once(once, [&] {
				std::this_thread::sleep_for(std::chrono::milliseconds(5));
				calls++;
				done = true;
			});
			if (done)
				saw_done++;
		});
	for (auto &t : racers)
		t.join();
	check(calls == 1 && saw_done == 32, "std::call_once from 32 threads: one call, all see it done");

	// std::mutex::try_lock from another thread while held.
	{
		std::unique_lock<std::mutex> lock(mu);
		bool other_got = true;
		std::thread([&] {
			other_got = mu.try_lock();
			if (other_got)
				mu.unlock();
		}).join();
		check(!other_got, "std::mutex::try_lock fails while another thread holds it");
	}

	std::printf("%d consumers, %d producers, %ld items\n", kConsumers, kProducers, (long)n);
	return failures != 0;
}
