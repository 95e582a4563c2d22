package io.aiperf.engine.client;

import io.aiperf.engine.config.RunLimits;
import io.aiperf.engine.record.ResponseData;
import io.aiperf.engine.time.Clock;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What the event loop does for each server-sent event of a streamed chat answer: HTTP chunk framing, SSE framing, the
 * OpenAI chunk parser and the collector's stamps, one event per network read as a token server sends them. Scored
 * per event; with {@code -prof gc}, {@code gc.alloc.rate.norm} is the bytes allocated per event. The SSE framer alone
 * is measured beside it.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ResponsePathBenchmark {
    static final int EVENTS = 64;
    private static final String EVENT = "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
            + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" token\"},\"finish_reason\":null}]}\n\n";

    private final Clock clock = System::nanoTime;
    private final RunLimits limits = RunLimits.defaults();
    private final Http1ResponseReader reader = new Http1ResponseReader();
    private byte[][] reads;
    private byte[][] events;
    private byte[] answer;
    private ResponseCollector collector;
    private SseFramer framer;
    private long framed;

    @Setup
    public void setUp() {
        final List<byte[]> parts = new ArrayList<>();
        parts.add(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        for (int i = 0; i < EVENTS; i++) {
            parts.add((Integer.toHexString(EVENT.length()) + "\r\n" + EVENT + "\r\n").getBytes(StandardCharsets.UTF_8));
        }
        final String done = "data: [DONE]\n\n";
        parts.add((Integer.toHexString(done.length()) + "\r\n" + done + "\r\n0\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        reads = parts.toArray(byte[][]::new);
        events = new byte[EVENTS][];
        for (int i = 0; i < EVENTS; i++) {
            events[i] = EVENT.getBytes(StandardCharsets.UTF_8);
        }
        final String completion = "{\"id\":\"c1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"one two three four five six "
                + "seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen\"},\"finish_reason\":\"length\"}],"
                + "\"usage\":{\"prompt_tokens\":16,\"completion_tokens\":16,\"total_tokens\":32}}";
        answer = ("HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Wed, 02 Dec 2026 05:18:00 GMT\r\n"
                + "Content-Type: application/json\r\nContent-Length: " + completion.length() + "\r\n"
                + "Connection: keep-alive\r\n\r\n" + completion).getBytes(StandardCharsets.US_ASCII);
        framer = new SseFramer((buf, off, len, nanos) -> framed += len, RunLimits.DEFAULT_MAX_EVENT_BYTES);
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public ResponseData streamedAnswer() throws IOException {
        collector = new ResponseCollector(clock, true, clock.nanoTime(), false, limits, ResponseParser.OPENAI);
        reader.reset(collector.asSink());
        for (final byte[] read : reads) {
            reader.feed(ByteBuffer.wrap(read), clock.nanoTime());
        }
        return collector.result();
    }

    /**
     * P1's answer: nginx's head and a whole chat completion in one read, through the reader, the collector and the
     * OpenAI parser to the record's data. Scored per answer.
     */
    @Benchmark
    public ResponseData nonStreamedAnswer() throws IOException {
        collector = new ResponseCollector(clock, false, clock.nanoTime(), false, limits, ResponseParser.OPENAI);
        reader.reset(collector.asSink(reader));
        reader.feed(ByteBuffer.wrap(answer), clock.nanoTime());
        return collector.result();
    }

    @Benchmark
    @OperationsPerInvocation(EVENTS)
    public long sseFramingOnly() throws ResponseTooLargeException {
        for (final byte[] event : events) {
            framer.feed(ByteBuffer.wrap(event), 0);
        }
        return framed;
    }
}
