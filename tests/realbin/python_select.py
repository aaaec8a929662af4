# CPython's select.select and select.poll (libc select and poll) with 100
# threads: each waits on its own pipe and on a shared pipe that never
# becomes ready, answers every request on a reply pipe, and main waits for
# the replies in one poll over all 100 of them.  Prints a checksum of the
# replies; under the shim (GMP_TEST_MODE=shim) also checks the waiting
# threads are Gs and do not each hold a kernel thread.
import os
import select
import sys
import threading

N_THREADS, ROUNDS = 100, 50
idle_r, idle_w = os.pipe()
req = [os.pipe() for _ in range(N_THREADS)]
rep = [os.pipe() for _ in range(N_THREADS)]


def worker(i):
    r, w = req[i][0], rep[i][1]
    p = select.poll()
    p.register(idle_r, select.POLLIN)
    p.register(r, select.POLLIN)
    for k in range(ROUNDS):
        if k % 2:
            ready = [fd for fd, ev in p.poll() if ev & select.POLLIN]
        else:
            ready, _, _ = select.select([idle_r, r], [], [], 30)
        if ready != [r]:
            raise SystemExit(f"thread {i} round {k}: {ready}")
        b = os.read(r, 1)
        os.write(w, bytes([(b[0] * 7 + i) % 256]))


threads = [threading.Thread(target=worker, args=(i,)) for i in range(N_THREADS)]
for t in threads:
    t.start()
total = 0
poller = select.poll()
index = {rep[i][0]: i for i in range(N_THREADS)}
for fd in index:
    poller.register(fd, select.POLLIN)
peak = 0
for k in range(ROUNDS):
    for i in range(N_THREADS):
        os.write(req[i][1], bytes([(k + i) % 256]))
    if k == 0:
        peak = len(os.listdir('/proc/self/task'))
    left = N_THREADS
    while left:
        for fd, ev in poller.poll(30000):
            total = (total + os.read(fd, 1)[0] * (index[fd] + 1) * (k + 1)) % (1 << 32)
            left -= 1
for t in threads:
    t.join()
print(f"replies checksum {total}")
print(f"kernel threads: {peak}", file=sys.stderr)
if os.environ.get("GMP_TEST_MODE") == "shim":
    # Asked of the runtime (shim/include/gmpshim.h's struct, read through ctypes):
    # it must be in this process, and the waiting threads, its Gs, must fit
    # in the kernel threads tests/integration/check.h allows: GOMAXPROCS + 7.
    import ctypes, struct
    try:
        read_stats = ctypes.CDLL(None).gmpshim_read_stats
    except AttributeError:
        raise SystemExit("no gmpshim runtime in this process")
    buf = ctypes.create_string_buffer(8 + 8 * (7 + 32) + 8)
    if read_stats(buf, len(buf)) != 0:
        raise SystemExit("gmpshim_read_stats failed")
    procs, created = struct.unpack_from("<4xIQ", buf)
    (os_threads,) = struct.unpack_from("<Q", buf, 8 + 8 * (7 + 32))
    print(f"gomaxprocs {procs}, {created} Gs, runtime on {os_threads} OS threads", file=sys.stderr)
    if created < N_THREADS or peak > os_threads or peak > procs + 7:
        raise SystemExit(f"{peak} kernel threads carry {N_THREADS} waiting threads "
                         f"({created} Gs, runtime on {os_threads} OS threads, {procs} Ps)")
