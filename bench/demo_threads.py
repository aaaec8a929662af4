# 200 threads take work from a queue.Queue, hash it and hand back results;
# the checksum is independent of scheduling order.
import hashlib
import os
import queue
import sys
import threading

N_THREADS, N_ITEMS = 200, 50000
todo, done = queue.Queue(), queue.Queue()

def worker():
    while (item := todo.get()) is not None:
        done.put(int(hashlib.sha256(str(item).encode()).hexdigest()[:8], 16))

threads = [threading.Thread(target=worker) for _ in range(N_THREADS)]
for t in threads:
    t.start()
# All 200 threads exist now; how many kernel threads carry them goes to
# stderr, so that stdout stays comparable between native and shim runs.
print(f"kernel threads: {len(os.listdir('/proc/self/task'))}", file=sys.stderr)
for i in range(N_ITEMS):
    todo.put(i)
for _ in threads:
    todo.put(None)
for t in threads:
    t.join()
total = 0
while not done.empty():
    total = (total + done.get()) % (1 << 32)
print(f"items={N_ITEMS} checksum={total}")
