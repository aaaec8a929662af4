"""multiprocessing with each start method, and a thread pool.

fork: Pool workers forked from a process with threads.  forkserver: the
server process, exec'd, receives each worker's pipes over a Unix socket
(SCM_RIGHTS); under the shim its blocking reads said EAGAIN
(BlockingIOError) while the sender's runtime kept the pipes non-blocking
underneath.  spawn: each worker is exec'd with pipes that are
close-on-exec in the parent and passed with pass_fds; the child gives them
their blocking mode back before its exec, and at one P the parent's read
of one blocked the M holding the P for good.  Also a Queue, Lock and
Event shared with three producers.
"""
import concurrent.futures as cf
import multiprocessing as mp
import os
import time


def sq(x):
    return x * x


def slow(x):
    time.sleep(0.01)
    return os.getpid()


def produce(q, lock, done):
    for i in range(100):
        with lock:
            q.put(i)
    done.set()


if __name__ == "__main__":
    for method in ("fork", "forkserver", "spawn"):
        ctx = mp.get_context(method)
        with ctx.Pool(4) as pool:
            squares = sum(pool.map(sq, range(2000)))
            workers = len(set(pool.map(slow, range(40))))
        with cf.ProcessPoolExecutor(3, mp_context=ctx) as ex:
            squares2 = sum(ex.map(sq, range(500)))
        q, lock, done = ctx.Queue(), ctx.Lock(), ctx.Event()
        ps = [ctx.Process(target=produce, args=(q, lock, done)) for _ in range(3)]
        for p in ps:
            p.start()
        got = sum(q.get(timeout=60) for _ in range(300))
        for p in ps:
            p.join()
        print(method, "pool:", squares, "from more than one worker:", workers > 1,
              "executor:", squares2, "queue:", got, "event:", done.is_set(),
              "exit codes:", [p.exitcode for p in ps])
    with cf.ThreadPoolExecutor(8) as ex:
        print("threads:", sum(ex.map(sq, range(10000))))
