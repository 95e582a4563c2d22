package io.aiperf.engine.e2e;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicBoolean;

/** Busy threads that make this JVM's client short of CPU for as long as a piece of a test runs. */
final class CpuHogs {
    private CpuHogs() {
    }

    /** Runs {@code body} while {@code perCore} busy threads per core compete with it, and stops them after. */
    static <T> T whileStarved(final int perCore, final Callable<T> body) throws Exception {
        final AtomicBoolean stop = new AtomicBoolean();
        final List<Thread> hogs = new ArrayList<>();
        for (int i = 0; i < perCore * Runtime.getRuntime().availableProcessors(); i++) {
            final Thread t = new Thread(() -> {
                long x = 0;
                while (!stop.get()) {
                    x += System.nanoTime() & 1; // keeps a core busy until told to stop
                }
                if (x == 42) {
                    System.out.print("");
                }
            }, "cpu-hog-" + i);
            t.setDaemon(true);
            hogs.add(t);
        }
        hogs.forEach(Thread::start);
        try {
            return body.call();
        } finally {
            stop.set(true);
        }
    }
}
