package io.aiperf.engine.client;

import io.aiperf.engine.config.RunLimits;
import io.aiperf.engine.time.Clock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Runs the response path (HTTP framing, SSE framing, the endpoint's parser, the collector) over synthetic bytes
 * before the first request, so its classes are loaded and its code compiled when the first real answer arrives:
 * the first wave of a run is then stamped as promptly as the rest (src-docs/performance.md). Costs the server
 * nothing; bounded in time.
 */
public final class ResponsePathWarmup {
    private static final String EVENT = "data: {\"id\":\"w\",\"object\":\"chat.completion.chunk\",\"model\":\"m\","
            + "\"choices\":[{\"index\":0,\"delta\":{\"content\":\"tok \"},\"finish_reason\":null}]}\n\n";
    private static final String BODY = "{\"id\":\"w\",\"object\":\"chat.completion\",\"model\":\"m\",\"choices\":[{"
            + "\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"one two three four\"},\"finish_reason\":"
            + "\"stop\"}],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":4,\"total_tokens\":8}}";

    private ResponsePathWarmup() {
    }

    /** Rounds per timed window; the run ends once a window is no faster than the best before it. */
    static final int WINDOW = 128;
    /** Windows always run: enough calls for the JIT's first tier to compile the path. */
    private static final int MIN_WINDOWS = 4;

    /**
     * Feeds synthetic answers shaped like {@code sample}'s (streamed or whole) through the response path until it
     * has settled (a window of rounds no longer runs 10% faster than the best earlier one: the JIT has compiled
     * what it will soon compile), {@code budgetNanos} have passed, or {@code maxRounds} answers were read.
     *
     * @return the answers read
     */
    public static int run(final PreparedRequest sample, final RunLimits limits, final Clock clock,
                          final long budgetNanos, final int maxRounds) {
        return run(sample.streaming(), sample.parser(), limits, clock, budgetNanos, maxRounds);
    }

    /**
     * As {@link #run(PreparedRequest, RunLimits, Clock, long, int)}, from the endpoint's shape alone: no request
     * is needed, so a cell starts it before its prompts are built.
     */
    public static int run(final boolean streaming, final ResponseParser parser, final RunLimits limits,
                          final Clock clock, final long budgetNanos, final int maxRounds) {
        final byte[] bytes = answer(streaming).getBytes(StandardCharsets.UTF_8);
        final long end = clock.nanoTime() + budgetNanos;
        final Http1ResponseReader reader = new Http1ResponseReader();
        int rounds = 0;
        int windows = 0;
        long windowStart = clock.nanoTime();
        long bestWindow = Long.MAX_VALUE;
        while (rounds < maxRounds && clock.nanoTime() < end) {
            final ResponseCollector collector = new ResponseCollector(clock, streaming, clock.nanoTime(), false,
                    limits, parser);
            reader.reset(collector.asSink());
            try {
                // In two reads, as the network would cut it.
                final int half = bytes.length / 2;
                reader.feed(ByteBuffer.wrap(bytes, 0, half), clock.nanoTime());
                reader.feed(ByteBuffer.wrap(bytes, half, bytes.length - half), clock.nanoTime());
                collector.result();
            } catch (IOException | RuntimeException e) {
                return rounds; // a parser that does not read this shape gains nothing from more rounds
            }
            rounds++;
            if (rounds % WINDOW == 0) {
                final long now = clock.nanoTime();
                final long window = now - windowStart;
                windowStart = now;
                if (++windows > MIN_WINDOWS && window * 10 >= bestWindow * 9) {
                    return rounds;
                }
                bestWindow = Math.min(bestWindow, window);
            }
        }
        return rounds;
    }

    private static String answer(final boolean streaming) {
        if (!streaming) {
            return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
                    + BODY.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + BODY;
        }
        final StringBuilder s = new StringBuilder(
                "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int i = 0; i < 16; i++) {
            s.append(Integer.toHexString(EVENT.length())).append("\r\n").append(EVENT).append("\r\n");
        }
        final String done = "data: [DONE]\n\n";
        return s.append(Integer.toHexString(done.length())).append("\r\n").append(done).append("\r\n0\r\n\r\n")
                .toString();
    }
}
