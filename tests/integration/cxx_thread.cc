// C++ threads: std::thread, thread_local objects with destructors,
// std::mutex, std::condition_variable (with and without timeouts) and
// std::call_once.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

static std::atomic<int> constructed{0}, destroyed{0};

struct PerThread {
	int id = -1;
	PerThread() { constructed++; }
	~PerThread() { destroyed++; }
};
static thread_local PerThread per_thread;

int main()
{
	std::mutex mu;
	std::condition_variable cv;
	std::deque<long> work;
	bool done = false;
	std::atomic<long> checksum{0};

	std::vector<std::thread> consumers;
	for (int i = 0; i < 8; i++)
		consumers.emplace_back([&, i] {
			per_thread.id = i;
			for (;;) {
				std::unique_lock<std::mutex> lock(mu);
				cv.wait_for(lock, std::chrono::milliseconds(50), [&] { return done || !work.empty(); });
				if (work.empty()) {
					if (done)
						break;
					continue;
				}
				long v = work.front();
				work.pop_front();
				lock.unlock();
				checksum += v * v;
				if (per_thread.id != i)
					std::fprintf(stderr, "thread_local changed\n");
			}
		});
	std::thread producer([&] {
		for (long v = 1; v <= 20000; v++) {
			std::lock_guard<std::mutex> lock(mu);
			work.push_back(v);
			cv.notify_one();
		}
		std::lock_guard<std::mutex> lock(mu);
		done = true;
		cv.notify_all();
	});
	producer.join();
	for (auto &t : consumers)
		t.join();

	std::once_flag once;
	std::atomic<int> calls{0};
	std::vector<std::thread> racers;
	for (int i = 0; i < 16; i++)
		racers.emplace_back([&] { std::call_once(once, [&] { calls++; }); });
	for (auto &t : racers)
		t.join();

	long want = 0;
	for (long v = 1; v <= 20000; v++)
		want += v * v;
	// Every thread that touched per_thread destroyed it when it ended.
	std::printf("checksum %s\n", checksum == want ? "correct" : "WRONG");
	std::printf("thread_local destructors: %d of %d\n", destroyed.load(), constructed.load() - 0);
	std::printf("call_once ran %d time(s)\n", calls.load());
	return !(checksum == want && destroyed == 8 && constructed == 8 && calls == 1);
}
