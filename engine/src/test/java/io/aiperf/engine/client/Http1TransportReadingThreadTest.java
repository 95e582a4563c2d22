package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.record.ResponseData;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.message.BasicHeader;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Every case of {@link Http1TransportTest} again with the reading thread always on, and the hand-off itself: the
 * loop parses what a reading thread read and stamped, each request still gets exactly one outcome and the right
 * one, a connection's bytes are parsed in the order they arrived, the reading thread waits (and the server with
 * it) when the parsing lags by the whole hand-off, and a stream cut or cancelled midway ends as it does without it.
 */
class Http1TransportReadingThreadTest extends Http1TransportTest {
    @BeforeAll
    static void readingThreadAlways() {
        System.setProperty(ReadingThread.PROPERTY, "always");
    }

    @AfterAll
    static void readingThreadDefault() {
        System.clearProperty(ReadingThread.PROPERTY);
    }

    private static final long WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private static void await(final java.util.function.BooleanSupplier condition, final String what) {
        final long until = System.nanoTime() + WAIT_NANOS;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > until) {
                throw new AssertionError("timed out waiting for " + what);
            }
            java.util.concurrent.locks.LockSupport.parkNanos(200_000); // poll the condition without burning a core
        }
    }

    /**
     * With a reading thread, the reads of other answers do not wait for a parse at all: while the loop is held in
     * one answer's parse, the reading thread reads the other two to their last byte, and their stamps are taken
     * before the parse returns.
     */
    @Test
    @Override
    void answersReadableTogetherAreStampedBeforeAnyIsParsed() throws Exception {
        final CountDownLatch holding = new CountDownLatch(1);
        final java.util.concurrent.atomic.AtomicLong released = new java.util.concurrent.atomic.AtomicLong();
        final java.util.concurrent.atomic.AtomicReference<InferenceClient> clientRef =
                new java.util.concurrent.atomic.AtomicReference<>();
        final byte[][] bodies = new byte[2][];
        final ResponseParser slow = (buf, off, len, out) -> {
            if (new String(buf, off, len, StandardCharsets.UTF_8).contains("hold")) {
                final long before = clientRef.get().handedOver()[0];
                holding.countDown();
                final long both = answerBytes(bodies[0]) + answerBytes(bodies[1]);
                await(() -> clientRef.get().handedOver()[0] >= before + both, "the other answers to be read");
                released.set(System.nanoTime());
            }
            ChunkParser.parse(buf, off, len, out);
        };
        for (int i = 0; i < 2; i++) {
            bodies[i] = ("{\"choices\":[{\"message\":{\"content\":\"answer\"}}]}").getBytes(StandardCharsets.UTF_8);
        }
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            final boolean hold = head.contains("X-Request-ID: hold");
            try {
                if (!hold) {
                    assertThat(holding.await(10, TimeUnit.SECONDS)).isTrue();
                }
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            final byte[] body = hold ? "{\"choices\":[{\"message\":{\"content\":\"hold\"}}]}"
                    .getBytes(StandardCharsets.UTF_8) : bodies[0];
            out.write(answerHead(body).getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            return true;
        }); InferenceClient client = client(4, 30)) {
            clientRef.set(client);
            final PreparedRequest base = request(server.uri());
            final PreparedRequest request = new PreparedRequest(base.uri(), base.headers(), base.body(), false,
                    PreparedRequest.DEFAULT_SESSION_HEADER, slow);
            final List<CompletableFuture<ResponseData>> answers = new ArrayList<>();
            for (final String id : List.of("a", "b")) {
                final CompletableFuture<ResponseData> done = new CompletableFuture<>();
                client.send(request, id, "c-" + id, new InFlight(), done::complete);
                answers.add(done);
            }
            final CompletableFuture<ResponseData> held = new CompletableFuture<>();
            client.send(request, "hold", "c-hold", new InFlight(), held::complete);
            assertThat(held.get(30, TimeUnit.SECONDS).error()).isNull();
            for (final CompletableFuture<ResponseData> answer : answers) {
                final ResponseData r = answer.get(30, TimeUnit.SECONDS);
                assertThat(r.error()).isNull();
                assertThat(r.ackPerfNanos()).isLessThan(released.get());
            }
        }
    }

    private static String answerHead(final byte[] body) {
        return "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n\r\n";
    }

    private static long answerBytes(final byte[] body) {
        return answerHead(body).length() + body.length;
    }

    private static PreparedRequest streamed(final java.net.URI uri, final ResponseParser parser) {
        return new PreparedRequest(uri, new Header[] {new BasicHeader("Content-Type", "application/json")},
                "{\"model\":\"m\",\"stream\":true}".getBytes(StandardCharsets.UTF_8), true,
                PreparedRequest.DEFAULT_SESSION_HEADER, parser);
    }

    /** Writes an SSE answer's head and its events {@code from} to {@code to} (exclusive) as chunks. */
    private static void events(final OutputStream out, final String stream, final int from, final int to)
            throws IOException {
        for (int i = from; i < to; i++) {
            final byte[] event = ("data: {\"choices\":[{\"delta\":{\"content\":\"" + stream + i + " \"}}]}\n\n")
                    .getBytes(StandardCharsets.UTF_8);
            out.write((Integer.toHexString(event.length) + "\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(event);
            out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
        }
    }

    private static void sseHead(final OutputStream out) throws IOException {
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
    }

    private static String expected(final String stream, final int count) {
        final StringBuilder s = new StringBuilder();
        for (int i = 0; i < count; i++) {
            s.append(stream).append(i).append(' ');
        }
        return s.toString();
    }

    /**
     * Four streams of 2.3 MB together, more than the hand-off holds, while the parser is held on the first event
     * until the reading thread has had to wait for it: every event arrives, each stream's in its order, with stamps
     * that never go back, and the reading thread waited instead of reading into more memory. The server answers
     * only once all four requests have reached it: the held parser holds the loop, which writes the requests, and
     * one stream alone (580 KB) fits in the hand-off, so a held parse before the other requests were written waited
     * for a wait that could not come (it happened when the test thread was descheduled between its sends).
     */
    @Test
    void streamsLargerThanTheHandOffArriveWholeAndInOrderWhileTheParserLags() throws Exception {
        final int streams = 4;
        final int count = 10_000; // about 58 bytes each, framed: 580 KB per stream
        final java.util.concurrent.atomic.AtomicReference<InferenceClient> clientRef =
                new java.util.concurrent.atomic.AtomicReference<>();
        final java.util.concurrent.atomic.AtomicBoolean held = new java.util.concurrent.atomic.AtomicBoolean();
        final CountDownLatch requested = new CountDownLatch(streams);
        final ResponseParser lagging = (buf, off, len, out) -> {
            if (held.compareAndSet(false, true)) {
                await(() -> clientRef.get().handedOver()[1] > 0, "the reading thread to wait for the parser");
            }
            ChunkParser.parse(buf, off, len, out);
        };
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            final String stream = head.substring(head.indexOf("X-Request-ID: ") + 14, head.indexOf("X-Request-ID: ") + 15);
            requested.countDown();
            try {
                assertThat(requested.await(30, TimeUnit.SECONDS)).as("all requests reach the server").isTrue();
            } catch (InterruptedException e) {
                throw new IOException(e);
            }
            final OutputStream buffered = new BufferedOutputStream(out, 64 * 1024);
            sseHead(buffered);
            events(buffered, stream, 0, count);
            buffered.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            buffered.flush();
            return true;
        }); InferenceClient client = client(streams, 60)) {
            clientRef.set(client);
            final List<CompletableFuture<ResponseData>> answers = new ArrayList<>();
            for (int s = 0; s < streams; s++) {
                final CompletableFuture<ResponseData> done = new CompletableFuture<>();
                client.send(streamed(server.uri(), lagging), String.valueOf((char) ('a' + s)), "c" + s, new InFlight(),
                        done::complete);
                answers.add(done);
                if (s == 0) { // the others go out only after the first has reached the server: the order that hung
                    await(() -> requested.getCount() < streams, "the first request to reach the server");
                }
            }
            for (int s = 0; s < streams; s++) {
                final ResponseData r = answers.get(s).get(60, TimeUnit.SECONDS);
                assertThat(r.error()).isNull();
                assertThat(r.contentCount()).isEqualTo(count);
                assertThat(r.content()).isEqualTo(expected(String.valueOf((char) ('a' + s)), count));
                for (int i = 1; i < r.contentCount(); i++) {
                    assertThat(r.contentPerfNanos()[i]).isGreaterThanOrEqualTo(r.contentPerfNanos()[i - 1]);
                }
            }
            assertThat(client.handedOver()[1]).isPositive();
            assertThat(client.handedOver()[0]).isGreaterThan(2L << 20); // twice what the hand-off holds
        }
    }

    /** A stream the server cuts midway is an error record, and the next request goes out on a new connection. */
    @Test
    void aStreamCutMidwayIsAnErrorAndTheNextRequestStillGoesOut() throws Exception {
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            sseHead(out);
            if (head.contains("X-Request-ID: cut")) {
                events(out, "x", 0, 3);
                out.flush();
                return false; // the connection ends without the last chunk
            }
            events(out, "y", 0, 2);
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            return true;
        }); InferenceClient client = client(1, 30)) {
            final CompletableFuture<ResponseData> cut = new CompletableFuture<>();
            client.send(streamed(server.uri(), ResponseParser.OPENAI), "cut", "c0", new InFlight(), cut::complete);
            final ResponseData r = cut.get(30, TimeUnit.SECONDS);
            assertThat(r.error()).isNotNull();
            assertThat(r.error().message()).contains("Premature end of chunk coded message body");
            final CompletableFuture<ResponseData> next = new CompletableFuture<>();
            client.send(streamed(server.uri(), ResponseParser.OPENAI), "next", "c1", new InFlight(), next::complete);
            final ResponseData ok = next.get(30, TimeUnit.SECONDS);
            assertThat(ok.error()).isNull();
            assertThat(ok.content()).isEqualTo("y0 y1 ");
            assertThat(server.connections.get()).isEqualTo(2);
        }
    }

    /**
     * A stream cancelled after its first event gets one outcome, its connection is closed (the server sees it
     * end), and the reading thread goes on reading the next request's answer.
     */
    @Test
    void aStreamCancelledMidwayGetsOneOutcomeAndItsConnectionIsClosed() throws Exception {
        final CountDownLatch firstEvent = new CountDownLatch(1);
        final ResponseParser signalling = (buf, off, len, out) -> {
            firstEvent.countDown();
            ChunkParser.parse(buf, off, len, out);
        };
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            sseHead(out);
            if (head.contains("X-Request-ID: cancel")) {
                events(out, "x", 0, 1);
                out.flush();
                // Events until the client has closed the connection (writes then fail).
                for (int i = 1; i < 100_000; i++) {
                    events(out, "x", i, i + 1);
                    out.flush();
                    try {
                        Thread.sleep(5);
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                return false;
            }
            events(out, "y", 0, 1);
            out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            return true;
        }); InferenceClient client = client(1, 30)) {
            final InFlight handle = new InFlight();
            final AtomicInteger outcomes = new AtomicInteger();
            final CompletableFuture<ResponseData> cancelled = new CompletableFuture<>();
            client.send(streamed(server.uri(), signalling), "cancel", "c0", handle, r -> {
                outcomes.incrementAndGet();
                cancelled.complete(r);
            });
            assertThat(firstEvent.await(30, TimeUnit.SECONDS)).isTrue();
            handle.cancel();
            assertThat(cancelled.get(30, TimeUnit.SECONDS).error().type()).isEqualTo("CancellationException");
            await(() -> server.ended.get() == 1, "the server to see the cancelled stream's connection end");
            final CompletableFuture<ResponseData> next = new CompletableFuture<>();
            client.send(streamed(server.uri(), ResponseParser.OPENAI), "next", "c1", new InFlight(), next::complete);
            assertThat(next.get(30, TimeUnit.SECONDS).content()).isEqualTo("y0 ");
            assertThat(outcomes.get()).isEqualTo(1);
        }
    }
}
