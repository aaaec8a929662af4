// C++ and thread exit: pthread_exit and cancellation unwind the thread's
// stack, so destructors of every frame run; catch (...) sees the unwind and
// must rethrow it; catch (abi::__forced_unwind &) matches it; the C
// pthread_cleanup_push macros (the C++ class variant) run their handlers in
// order with the destructors; then thread_local destructors, then pthread
// key destructors.  A std::thread is cancelled too.  A catch (...) that
// swallows the unwind ends the process with SIGABRT (in a child).
#include <cxxabi.h>
#include <signal.h>
#include <sys/wait.h>
#include <pthread.h>
#include <semaphore.h>
#include <time.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

static sem_t ready, never;
static pthread_key_t key;

struct Noisy {
	const char *name;
	explicit Noisy(const char *n) : name(n) {}
	~Noisy() { std::printf("  ~Noisy(%s)\n", name); }
};

struct TL {
	std::string who = "unset";
	~TL() { std::printf("  thread_local destructor (%s)\n", who.c_str()); }
};
static thread_local TL tl;

static void key_dtor(void *v)
{
	std::printf("  key destructor (%s)\n", static_cast<const char *>(v));
}

static void handler(void *arg)
{
	std::printf("  cleanup handler %s\n", static_cast<const char *>(arg));
}

static void pause_ms(int ms)
{
	struct timespec ts = { 0, ms * 1000000L };
	nanosleep(&ts, nullptr);
}

static void inner_exit()
{
	Noisy n("inner frame");
	pthread_cleanup_push(handler, (void *)"pushed in inner frame");
	pthread_exit(reinterpret_cast<void *>(5));
	pthread_cleanup_pop(0);
}

static void *exiting(void *)
{
	tl.who = "exiting";
	pthread_setspecific(key, (void *)"exiting");
	Noisy n("outer frame");
	try {
		inner_exit();
	} catch (...) {
		std::printf("  catch (...) saw the exit; rethrowing\n");
		throw;
	}
	return nullptr;
}

static void *cancelled_waiter(void *)
{
	tl.who = "cancelled_waiter";
	pthread_setspecific(key, (void *)"cancelled_waiter");
	Noisy n("waiter frame");
	try {
		sem_post(&ready);
		sem_wait(&never);
	} catch (abi::__forced_unwind &) {
		std::printf("  catch (abi::__forced_unwind &) saw the cancellation; rethrowing\n");
		throw;
	}
	std::printf("  WRONG: sem_wait returned\n");
	return nullptr;
}

static void *caught_exception(void *)
{
	// An ordinary exception caught inside a thread that is later cancelled:
	// exception handling of the program's own keeps working.
	Noisy n("caught_exception frame");
	try {
		throw std::string("ordinary");
	} catch (const std::string &s) {
		std::printf("  caught an ordinary exception: %s\n", s.c_str());
	}
	pthread_cleanup_push(handler, (void *)"after the ordinary exception");
	sem_post(&ready);
	for (;;)
		pause();
	pthread_cleanup_pop(0);
	return nullptr;
}

static void *swallower(void *)
{
	try {
		pthread_exit(nullptr);
	} catch (...) {
		// Not rethrown: the unwind cannot go on.
	}
	return nullptr;
}

static void report(const char *what, pthread_t t, void *want)
{
	void *res = nullptr;
	int jr = pthread_join(t, &res);
	std::printf("  %s: join %d, %s\n", what, jr, res == want ? "result as expected" : "WRONG result");
}

int main()
{
	setvbuf(stdout, nullptr, _IONBF, 0);
	sem_init(&ready, 0, 0);
	sem_init(&never, 0, 0);
	pthread_key_create(&key, key_dtor);
	pthread_t t;

	std::printf("catch (...) without rethrow, in a child:\n");
	pid_t pid = fork();
	if (pid == 0) {
		pthread_create(&t, nullptr, swallower, nullptr);
		pthread_join(t, nullptr);
		_exit(0);
	}
	int status = 0;
	waitpid(pid, &status, 0);
	std::printf("  %s\n", WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT ? "killed by SIGABRT" : "WRONG");

	std::printf("pthread_exit from a callee inside try/catch (...):\n");
	pthread_create(&t, nullptr, exiting, nullptr);
	report("exiting", t, reinterpret_cast<void *>(5));

	std::printf("cancel in sem_wait inside try/catch (abi::__forced_unwind &):\n");
	pthread_create(&t, nullptr, cancelled_waiter, nullptr);
	sem_wait(&ready);
	pause_ms(20);
	pthread_cancel(t);
	report("cancelled_waiter", t, PTHREAD_CANCELED);

	std::printf("cancel in pause after an ordinary exception:\n");
	pthread_create(&t, nullptr, caught_exception, nullptr);
	sem_wait(&ready);
	pause_ms(20);
	pthread_cancel(t);
	report("caught_exception", t, PTHREAD_CANCELED);

	std::printf("cancel of a std::thread in sleep:\n");
	std::thread st([] {
		Noisy n("std::thread frame");
		sem_post(&ready);
		sleep(3600);
	});
	sem_wait(&ready);
	pause_ms(20);
	pthread_cancel(st.native_handle());
	st.join();
	std::printf("  joined\n");
	return 0;
}
