import java.io.*;
import java.net.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.util.concurrent.locks.*;
import java.util.stream.*;

public class JavaThreads {
    public static void main(String[] args) throws Exception {
        // A fixed pool of 16 computing 400 tasks through futures.
        ExecutorService pool = Executors.newFixedThreadPool(16);
        List<Future<Long>> fs = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            final int k = i;
            fs.add(pool.submit(() -> { long s = 0; for (int j = 0; j < 100000; j++) s += (j * 31L + k) % 1009; return s; }));
        }
        long sum = 0;
        for (Future<Long> f : fs) sum += f.get();
        System.out.println("pool: 400 tasks, sum " + sum);

        // 100 threads on one monitor with wait/notifyAll: a turnstile in order.
        final Object mon = new Object();
        final int[] turn = {0};
        Thread[] ts = new Thread[100];
        for (int i = 0; i < ts.length; i++) {
            final int me = i;
            ts[i] = new Thread(() -> {
                for (int r = 0; r < 20; r++) {
                    synchronized (mon) {
                        while (turn[0] % 100 != me) { try { mon.wait(); } catch (InterruptedException e) { return; } }
                        turn[0]++;
                        mon.notifyAll();
                    }
                }
            });
            ts[i].start();
        }
        for (Thread t : ts) t.join();
        System.out.println("monitor: " + turn[0] + " turns in order");

        // ReentrantLock and Condition with timed waits (LockSupport.parkNanos).
        ReentrantLock lock = new ReentrantLock();
        Condition cond = lock.newCondition();
        int[] tokens = {0};
        Thread producer = new Thread(() -> {
            for (int i = 0; i < 2000; i++) { lock.lock(); try { tokens[0]++; cond.signal(); } finally { lock.unlock(); } }
        });
        Thread consumer = new Thread(() -> {
            int got = 0;
            while (got < 2000) {
                lock.lock();
                try {
                    while (tokens[0] == 0)
                        cond.await(5, TimeUnit.MILLISECONDS);
                    tokens[0]--; got++;
                } catch (InterruptedException e) { return; } finally { lock.unlock(); }
            }
        });
        consumer.start(); producer.start(); producer.join(); consumer.join();
        System.out.println("condition: 2000 tokens passed, " + tokens[0] + " left");

        // Interrupting a sleeping thread.
        CountDownLatch asleep = new CountDownLatch(1);
        AtomicBoolean interrupted = new AtomicBoolean();
        Thread sleeper = new Thread(() -> { asleep.countDown(); try { Thread.sleep(60000); } catch (InterruptedException e) { interrupted.set(true); } });
        sleeper.start(); asleep.await(); Thread.sleep(50); sleeper.interrupt(); sleeper.join();
        System.out.println("sleep: interrupted " + interrupted.get());

        // Loopback TCP: an accepting thread, a thread per connection, 20 clients.
        ServerSocket ss = new ServerSocket(0, 64, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(() -> {
            try {
                for (int i = 0; i < 20; i++) {
                    Socket c = ss.accept();
                    new Thread(() -> {
                        try (c; BufferedReader in = new BufferedReader(new InputStreamReader(c.getInputStream()));
                             PrintWriter out = new PrintWriter(c.getOutputStream(), true)) {
                            String line;
                            while ((line = in.readLine()) != null) out.println(line.toUpperCase());
                        } catch (IOException e) { }
                    }).start();
                }
            } catch (IOException e) { }
        });
        acceptor.start();
        ExecutorService clients = Executors.newFixedThreadPool(20);
        List<Future<Integer>> cs = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            final int k = i;
            cs.add(clients.submit(() -> {
                int ok = 0;
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), ss.getLocalPort());
                     BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream()));
                     PrintWriter out = new PrintWriter(s.getOutputStream(), true)) {
                    for (int r = 0; r < 200; r++) {
                        String msg = "client " + k + " line " + r;
                        out.println(msg);
                        if (msg.toUpperCase().equals(in.readLine())) ok++;
                    }
                }
                return ok;
            }));
        }
        int echoed = 0;
        for (Future<Integer> f : cs) echoed += f.get();
        acceptor.join();
        ss.close();
        System.out.println("tcp: " + echoed + " lines echoed");

        // Parallel streams on the common ForkJoinPool, and a garbage collection.
        long primes = LongStream.rangeClosed(2, 200000).parallel().filter(n -> { for (long d = 2; d * d <= n; d++) if (n % d == 0) return false; return true; }).count();
        System.out.println("forkjoin: " + primes + " primes");
        ConcurrentHashMap<Integer, Integer> map = new ConcurrentHashMap<>();
        List<byte[]> keep = new ArrayList<>();
        IntStream.range(0, 100000).parallel().forEach(i -> { map.merge(i % 1000, 1, Integer::sum); });
        for (int i = 0; i < 50000; i++) { byte[] b = new byte[2048]; if (i % 100 == 0) keep.add(b); }
        System.gc();
        System.out.println("map: " + map.size() + " keys, " + map.values().stream().mapToInt(Integer::intValue).sum() + " counts, kept " + keep.size());
        pool.shutdown(); clients.shutdown();
        System.out.println("done: " + pool.awaitTermination(10, TimeUnit.SECONDS) + " " + clients.awaitTermination(10, TimeUnit.SECONDS));
    }
}
