package io.aiperf.engine.dataset;

import io.aiperf.engine.config.ConfigException;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.BooleanSupplier;

/**
 * A tokenizer whose time is bounded (src-docs/failure-modes.md). A model's {@code tokenizer.json} can carry a
 * pre-tokenizer regex that backtracks: its calls run in native code that nothing interrupts, each far below any
 * per-call limit the native library has, and together for hours. So the time spent in the tokenizer, the call still
 * running included, may not exceed a floor plus a time per character given to it: a tokenizer slower than
 * {@link #MIN_CHARS_PER_SECOND} is pathological (real ones read megabytes a second). {@link #run} does tokenizing
 * work on a daemon worker and ends it with one clear error when the bound is crossed; the stuck worker is abandoned,
 * so the JVM can still exit. Thread-safe.
 */
public final class TokenizerWatchdog implements Tokenizer {
    /** The option a stuck tokenizer's error names. */
    public static final String FIELD = "--tokenizer";
    /** What the tokenizer may spend whatever it is given: covers loading, warming up and a slow machine. */
    public static final long FLOOR_NANOS = 10_000_000_000L;
    /** The slowest a tokenizer may read; a hundred times slower than real ones at their slowest. */
    public static final long MIN_CHARS_PER_SECOND = 100_000;

    private final Tokenizer inner;
    private final long floorNanos;
    private long finishedNanos;
    private long chars;
    private long callStartedNanos;

    public TokenizerWatchdog(final Tokenizer inner, final long floorNanos) {
        this.inner = inner;
        this.floorNanos = floorNanos;
    }

    @Override
    public int count(final String text) {
        final long started;
        synchronized (this) {
            chars += text == null ? 0 : text.length();
            started = Math.max(1, System.nanoTime());
            callStartedNanos = started;
        }
        try {
            return inner.count(text);
        } finally {
            synchronized (this) {
                finishedNanos += System.nanoTime() - started;
                callStartedNanos = 0;
            }
        }
    }

    /** The error to end the work with when the tokenizer has spent more than its bound, or null. */
    public synchronized ConfigException overrun(final String during) {
        final long spent = finishedNanos + (callStartedNanos == 0 ? 0 : System.nanoTime() - callStartedNanos);
        final long bound = boundNanos();
        if (spent <= bound) {
            return null;
        }
        return new ConfigException(FIELD, "tokenizer " + inner.name() + " spent more than "
                + seconds(bound) + " s on " + chars + " characters while " + during + " (the bound is "
                + seconds(floorNanos) + " s plus 1 s per " + String.format(Locale.ROOT, "%,d", MIN_CHARS_PER_SECOND)
                + " characters): its pre-tokenizer regex likely backtracks on them; use --tokenizer builtin, or fix"
                + " the tokenizer.json");
    }

    private long boundNanos() {
        final long perChars = chars > Long.MAX_VALUE / 1_000_000_000L ? Long.MAX_VALUE
                : chars * 1_000_000_000L / MIN_CHARS_PER_SECOND;
        return floorNanos > Long.MAX_VALUE - perChars ? Long.MAX_VALUE : floorNanos + perChars;
    }

    private static String seconds(final long nanos) {
        return String.format(Locale.ROOT, "%.1f", nanos / 1e9);
    }

    /**
     * Runs tokenizing work on a daemon worker this thread watches: a cancel (the first SIGINT or SIGTERM) stops the
     * wait at once, and the tokenizer going over its bound ends it with a clear error. The worker is never joined.
     *
     * @param during what the work is, for the error ("building prompts")
     * @throws CancellationException when cancelled before the work was done
     * @throws ConfigException when the tokenizer went over its bound
     */
    public <T> T run(final Callable<T> work, final BooleanSupplier cancelled, final String during)
            throws InterruptedException {
        final CompletableFuture<T> result = new CompletableFuture<>();
        final Thread worker = new Thread(() -> {
            try {
                result.complete(work.call());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        }, "tokenizer-work");
        worker.setDaemon(true);
        worker.start();
        while (true) {
            try {
                return result.get(50, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                if (cancelled.getAsBoolean()) {
                    throw new CancellationException("cancelled while " + during);
                }
                final ConfigException over = overrun(during);
                if (over != null) {
                    throw over;
                }
            } catch (ExecutionException e) {
                if (e.getCause() instanceof RuntimeException r) {
                    throw r;
                }
                if (e.getCause() instanceof Error err) {
                    throw err;
                }
                throw new IllegalStateException(e.getCause());
            }
        }
    }

    @Override
    public String name() {
        return inner.name();
    }

    @Override
    public String source() {
        return inner.source();
    }

    @Override
    public String revision() {
        return inner.revision();
    }

    @Override
    public java.nio.file.Path file() {
        return inner.file();
    }

    @Override
    public int vocabularySize() {
        return inner.vocabularySize();
    }
}
