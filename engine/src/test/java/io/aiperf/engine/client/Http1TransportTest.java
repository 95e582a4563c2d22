package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.net.HttpHeads;
import io.aiperf.engine.config.RunLimits;
import io.aiperf.engine.config.TlsConfig;
import io.aiperf.engine.record.ResponseData;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.message.BasicHeader;
import org.junit.jupiter.api.Test;

/**
 * The lean HTTP/1.1 transport against a scripted loopback server that misbehaves on purpose: connections closed
 * under the client, answers that never come, a pool smaller than the load. Each request still gets exactly one
 * outcome, and the right one.
 */
class Http1TransportTest {
    private static final String OK_BODY = "{\"choices\":[{\"message\":{\"content\":\"hello there\"}}]}";

    /** How the scripted server answers one request on a connection; false ends the connection. */
    interface Script {
        boolean answer(int requestOnConnection, String head, OutputStream out) throws IOException;
    }

    /** A thread-per-connection server on loopback that runs a script and counts connections and requests. */
    static final class ScriptedServer implements AutoCloseable {
        final ServerSocket socket = new ServerSocket(0, 512, InetAddress.getLoopbackAddress());
        final AtomicInteger connections = new AtomicInteger();
        final List<String> requestHeads = new CopyOnWriteArrayList<>();
        final List<String> requestBodies = new CopyOnWriteArrayList<>();
        /** Connections that ended (the client closed them, or the script did). */
        final AtomicInteger ended = new AtomicInteger();
        private final List<Socket> open = new CopyOnWriteArrayList<>();

        ScriptedServer(final Script script) throws IOException {
            final Thread acceptor = new Thread(() -> {
                while (!socket.isClosed()) {
                    try {
                        final Socket s = socket.accept();
                        open.add(s);
                        connections.incrementAndGet();
                        final Thread t = new Thread(() -> serve(s, script), "scripted-connection");
                        t.setDaemon(true);
                        t.start();
                    } catch (IOException e) {
                        return;
                    }
                }
            }, "scripted-acceptor");
            acceptor.setDaemon(true);
            acceptor.start();
        }

        private void serve(final Socket s, final Script script) {
            try (s; InputStream in = s.getInputStream(); OutputStream out = s.getOutputStream()) {
                for (int n = 0; ; n++) {
                    final String head = HttpHeads.read(in);
                    if (head == null) {
                        return;
                    }
                    requestBodies.add(new String(in.readNBytes(contentLength(head)), StandardCharsets.UTF_8));
                    requestHeads.add(head);
                    if (!script.answer(n, head, out)) {
                        return;
                    }
                    out.flush();
                }
            } catch (IOException e) {
                // the client went away
            } finally {
                ended.incrementAndGet();
            }
        }

        URI uri() {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort() + "/v1/chat/completions");
        }

        @Override
        public void close() throws IOException {
            socket.close();
            for (final Socket s : open) {
                s.close();
            }
        }
    }

    private static int contentLength(final String head) {
        for (final String line : head.split("\r\n")) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                return Integer.parseInt(line.substring(15).trim());
            }
        }
        return 0;
    }

    static void ok(final OutputStream out, final String extraHeaders) throws IOException {
        final byte[] body = OK_BODY.getBytes(StandardCharsets.UTF_8);
        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length + "\r\n"
                + extraHeaders + "\r\n").getBytes(StandardCharsets.US_ASCII));
        out.write(body);
    }

    static PreparedRequest request(final URI uri) {
        return new PreparedRequest(uri, new Header[] {new BasicHeader("Content-Type", "application/json"),
                new BasicHeader("Authorization", "Bearer k")},
                "{\"model\":\"m\",\"messages\":[]}".getBytes(StandardCharsets.UTF_8), false);
    }

    static InferenceClient client(final int connections, final double timeoutSeconds) {
        return new InferenceClient(connections, timeoutSeconds, System::nanoTime, RunLimits.defaults(),
                io.aiperf.engine.config.NetworkConfig.defaults(), true);
    }

    static ResponseData sendAndWait(final InferenceClient client, final PreparedRequest request, final int i)
            throws Exception {
        final CompletableFuture<ResponseData> done = new CompletableFuture<>();
        client.send(request, "r" + i, "c" + i, new InFlight(), done::complete);
        return done.get(30, TimeUnit.SECONDS);
    }

    /** Sends a plain request with id {@code id} (correlation {@code c-id}); its outcome completes the future. */
    static CompletableFuture<ResponseData> sendAsync(final InferenceClient client, final URI uri, final String id) {
        final CompletableFuture<ResponseData> done = new CompletableFuture<>();
        client.send(request(uri), id, "c-" + id, new InFlight(), done::complete);
        return done;
    }

    /** On the server: waits (at most 10 s) for {@code latch}. */
    static void await(final java.util.concurrent.CountDownLatch latch) throws IOException {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
    }

    /**
     * On a held event loop: lets the server send the answer it holds until {@code release}, and returns once it is
     * written ({@code answered}) and its bytes have had time to cross loopback into the client's socket.
     */
    static void letTheAnswerArrive(final java.util.concurrent.CountDownLatch release,
                                   final java.util.concurrent.CountDownLatch answered) {
        release.countDown();
        try {
            assertThat(answered.await(10, TimeUnit.SECONDS)).isTrue();
            Thread.sleep(50); // the answer's bytes cross loopback into the client's socket
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Test
    void requestsCarryTheirHeadersAndReuseTheConnection() throws Exception {
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            ok(out, "");
            return true;
        }); InferenceClient client = client(4, 30)) {
            for (int i = 0; i < 3; i++) {
                final ResponseData r = sendAndWait(client, request(server.uri()), i);
                assertThat(r.error()).isNull();
                assertThat(r.content()).isEqualTo("hello there");
            }
            assertThat(server.connections.get()).isEqualTo(1);
            final String head = server.requestHeads.get(2);
            assertThat(head).startsWith("POST /v1/chat/completions HTTP/1.1\r\n")
                    .contains("Host: 127.0.0.1:" + server.socket.getLocalPort() + "\r\n")
                    .contains("X-Request-ID: r2\r\n").contains("X-Correlation-ID: c2\r\n")
                    .contains("X-Session-Affinity: c2\r\n").contains("Authorization: Bearer k\r\n")
                    .contains("Content-Length: 27\r\n");
        }
    }

    @Test
    void connectionsTheServerClosesAreNeverReusedAndNoRequestFails() throws Exception {
        // Half the connections end with "Connection: close", the other half are closed silently after one answer.
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            final boolean announced = head.contains("X-Request-ID: r0") || head.contains("X-Request-ID: r2");
            ok(out, announced ? "Connection: close\r\n" : "");
            return false;
        }); InferenceClient client = client(4, 30)) {
            for (int i = 0; i < 4; i++) {
                final ResponseData r = sendAndWait(client, request(server.uri()), i);
                assertThat(r.error()).as("request %d", i).isNull();
                // A silent close is seen by the event loop, or by the probe of a connection idle this long.
                Thread.sleep(150);
            }
            assertThat(server.connections.get()).isEqualTo(4);
        }
    }

    @Test
    void anAnswerThatNeverComesTimesOutWithUpstreamsMessage() throws Exception {
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> true); // reads, never answers
             InferenceClient client = client(2, 0.3)) {
            final ResponseData r = sendAndWait(client, request(server.uri()), 0);
            assertThat(r.error()).isNotNull();
            assertThat(r.error().type()).isEqualTo("TimeoutException");
            assertThat(r.error().message()).isEqualTo("Request timed out after 0.3 seconds");
        }
    }

    @Test
    void requestsBeyondThePoolWaitTheirTurnInOrder() throws Exception {
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            ok(out, "");
            return true;
        }); InferenceClient client = client(1, 30)) {
            final List<CompletableFuture<ResponseData>> all = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                final CompletableFuture<ResponseData> done = new CompletableFuture<>();
                client.send(request(server.uri()), "r" + i, "c" + i, new InFlight(), done::complete);
                all.add(done);
            }
            for (final CompletableFuture<ResponseData> f : all) {
                assertThat(f.get(30, TimeUnit.SECONDS).error()).isNull();
            }
            assertThat(server.connections.get()).isEqualTo(1);
            assertThat(server.requestHeads).hasSize(5);
            for (int i = 0; i < 5; i++) {
                assertThat(server.requestHeads.get(i)).contains("X-Request-ID: r" + i + "\r\n");
            }
        }
    }

    @Test
    void aCancelledRequestGetsOneOutcomeAndItsConnectionIsDropped() throws Exception {
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            if (head.contains("X-Request-ID: r0")) {
                return true; // keeps r0 waiting until it is cancelled
            }
            ok(out, "");
            return true;
        }); InferenceClient client = client(1, 30)) {
            final InFlight handle = new InFlight();
            final AtomicInteger outcomes = new AtomicInteger();
            final CompletableFuture<ResponseData> first = new CompletableFuture<>();
            client.send(request(server.uri()), "r0", "c0", handle, r -> {
                outcomes.incrementAndGet();
                first.complete(r);
            });
            while (server.requestHeads.isEmpty()) {
                Thread.onSpinWait();
            }
            handle.cancel();
            final ResponseData r = first.get(30, TimeUnit.SECONDS);
            assertThat(r.error().type()).isEqualTo("CancellationException");
            assertThat(sendAndWait(client, request(server.uri()), 1).error()).isNull();
            assertThat(server.connections.get()).isEqualTo(2);
            assertThat(outcomes.get()).isEqualTo(1);
        }
    }

    @Test
    void aRefusedConnectIsAnErrorRecord() throws Exception {
        final int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        try (InferenceClient client = client(1, 30)) {
            final ResponseData r = sendAndWait(client,
                    request(URI.create("http://127.0.0.1:" + port + "/v1/chat/completions")), 0);
            assertThat(r.error()).isNotNull();
            assertThat(r.error().type()).isEqualTo("ConnectException");
        }
    }

    /**
     * Two answers readable at the same wake-up are both read and stamped before either is parsed: the second's stamp
     * does not include the first's parsing. The loop is held (inside the parse of a third answer) until both answers
     * sit in their sockets; then both stamps must come before the first parse of the two begins (read one after the
     * other's parse, the second could not).
     */
    @Test
    void answersReadableTogetherAreStampedBeforeAnyIsParsed() throws Exception {
        final java.util.concurrent.CountDownLatch holding = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch bothWritten = new java.util.concurrent.CountDownLatch(2);
        final java.util.concurrent.atomic.AtomicLong firstParse = new java.util.concurrent.atomic.AtomicLong(Long.MAX_VALUE);
        final ResponseParser slow = (buf, off, len, out) -> {
            final String body = new String(buf, off, len, StandardCharsets.UTF_8);
            if (body.contains("hold")) {
                holding.countDown();
                try {
                    assertThat(bothWritten.await(10, TimeUnit.SECONDS)).isTrue();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            } else {
                firstParse.accumulateAndGet(System.nanoTime(), Math::min);
            }
            ChunkParser.parse(buf, off, len, out);
        };
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            final boolean hold = head.contains("X-Request-ID: hold");
            if (!hold) {
                await(holding);
            }
            final byte[] body = ("{\"choices\":[{\"message\":{\"content\":\"" + (hold ? "hold" : "answer")
                    + "\"}}]}").getBytes(StandardCharsets.UTF_8);
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
            out.flush();
            if (!hold) {
                bothWritten.countDown();
            }
            return true;
        }); InferenceClient client = client(4, 30)) {
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
            final ResponseData a = answers.get(0).get(30, TimeUnit.SECONDS);
            final ResponseData b = answers.get(1).get(30, TimeUnit.SECONDS);
            assertThat(a.error()).isNull();
            assertThat(b.error()).isNull();
            assertThat(Math.max(a.ackPerfNanos(), b.ackPerfNanos())).isLessThan(firstParse.get());
        }
    }

    /**
     * Requests handed over while the loop was busy are served after the loop has read what arrived meanwhile: an
     * answer waiting in its socket frees its connection for them, instead of a connect per request while answers sit
     * unread (the snowball of connects of an open loop after a stall). The loop is held in a completion while two
     * requests are handed over and the third connection's answer arrives; with room for three connections, the two
     * requests must take the two that exist.
     */
    @Test
    void requestsHandedOverDuringAStallTakeTheConnectionsTheirAnswersFree() throws Exception {
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch answered = new java.util.concurrent.CountDownLatch(1);
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            if (head.contains("X-Request-ID: late")) {
                await(release);
                ok(out, "");
                out.flush();
                answered.countDown();
                return true;
            }
            ok(out, "");
            return true;
        }); InferenceClient client = client(3, 30)) {
            final CompletableFuture<ResponseData> late = new CompletableFuture<>();
            client.send(request(server.uri()), "late", "c-late", new InFlight(), late::complete);
            final List<CompletableFuture<ResponseData>> next = new ArrayList<>();
            final CompletableFuture<ResponseData> stalled = new CompletableFuture<>();
            client.send(request(server.uri()), "stall", "c-stall", new InFlight(), r -> {
                // On the event loop: hand over two requests and let the late answer arrive before returning.
                for (int i = 0; i < 2; i++) {
                    final CompletableFuture<ResponseData> done = new CompletableFuture<>();
                    client.send(request(server.uri()), "next" + i, "c-next" + i, new InFlight(), done::complete);
                    next.add(done);
                }
                letTheAnswerArrive(release, answered);
                stalled.complete(r);
            });
            assertThat(stalled.get(30, TimeUnit.SECONDS).error()).isNull();
            assertThat(late.get(30, TimeUnit.SECONDS).error()).isNull();
            for (final CompletableFuture<ResponseData> f : next) {
                assertThat(f.get(30, TimeUnit.SECONDS).error()).isNull();
            }
            assertThat(server.connections.get()).isEqualTo(2);
        }
    }

    /**
     * A burst of requests handed over at once (a closed loop's first wave) is written a batch at a time, with the
     * sockets read between batches: an answer already waiting is stamped before the burst's last request is out,
     * not after it. The loop is held in a completion while 200 requests are handed over to idle connections and
     * another request's answer arrives. Requests from other threads go round the event loops (one per four cores):
     * each loop gets its share of idle connections, and the held request is sent to the loop of the answer that
     * waits.
     */
    @Test
    void anAnswerThatArrivesDuringABurstOfRequestsIsReadBeforeTheBurstIsOut() throws Exception {
        final int loops = InferenceClient.ioThreads();
        final int burst = 200;
        final java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        final java.util.concurrent.CountDownLatch answered = new java.util.concurrent.CountDownLatch(1);
        final int connections = (burst + 2) * loops;
        final java.util.concurrent.CountDownLatch allWarm = new java.util.concurrent.CountDownLatch(connections);
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            if (head.contains("X-Request-ID: warm")) {
                allWarm.countDown(); // held until all are in: each takes a connection of its own
                await(allWarm);
            }
            if (head.contains("X-Request-ID: early")) {
                await(release);
                ok(out, "");
                out.flush();
                answered.countDown();
                return true;
            }
            ok(out, "");
            return true;
        }); InferenceClient client = client(connections, 30)) {
            // Every request of the burst finds an idle connection, so each one's task writes it at once.
            final List<CompletableFuture<ResponseData>> warm = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                warm.add(sendAsync(client, server.uri(), "warm" + i));
            }
            for (final CompletableFuture<ResponseData> f : warm) {
                assertThat(f.get(30, TimeUnit.SECONDS).error()).isNull();
            }
            final CompletableFuture<ResponseData> early = sendAsync(client, server.uri(), "early");
            for (int i = 1; i < loops; i++) { // round the other loops, so the held request shares early's
                assertThat(sendAndWait(client, request(server.uri()), 1000 + i).error()).isNull();
            }
            final List<CompletableFuture<ResponseData>> wave = new ArrayList<>();
            final CompletableFuture<ResponseData> stalled = new CompletableFuture<>();
            client.send(request(server.uri()), "stall", "c-stall", new InFlight(), r -> {
                // On the event loop: hand the burst over, and let the early answer arrive before returning.
                for (int i = 0; i < burst; i++) { // sent from the loop, so they stay on it
                    wave.add(sendAsync(client, server.uri(), "wave" + i));
                }
                letTheAnswerArrive(release, answered);
                stalled.complete(r);
            });
            assertThat(stalled.get(30, TimeUnit.SECONDS).error()).isNull();
            final ResponseData first = early.get(30, TimeUnit.SECONDS);
            assertThat(first.error()).isNull();
            long lastWritten = Long.MIN_VALUE;
            for (final CompletableFuture<ResponseData> f : wave) {
                final ResponseData r = f.get(30, TimeUnit.SECONDS);
                assertThat(r.error()).isNull();
                lastWritten = Math.max(lastWritten, r.startPerfNanos());
            }
            assertThat(server.connections.get()).isEqualTo(connections);
            assertThat(first.ackPerfNanos()).isLessThan(lastWritten);
        }
    }

    /**
     * Requests still handed over, not yet written, when the transport closes are cancelled and never reach the
     * wire, although idle connections could take them. The first loop is held in a completion while they are handed
     * over and the client closes; it is let go once the close waits for it to end.
     */
    @Test
    void requestsStillQueuedWhenTheTransportClosesAreCancelledAndNeverWritten() throws Exception {
        final int loops = InferenceClient.ioThreads();
        final int idle = 4;
        final java.util.concurrent.CountDownLatch allWarm = new java.util.concurrent.CountDownLatch(idle);
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            if (head.contains("X-Request-ID: warm")) {
                allWarm.countDown(); // held until all are in: each takes a connection of its own
                await(allWarm);
            }
            ok(out, "");
            return true;
        })) {
            final InferenceClient client = client(idle * loops, 30);
            // The first request goes to the first loop, the one the close stops first; then one round of the loops.
            final List<CompletableFuture<ResponseData>> warm = new ArrayList<>();
            for (int i = 0; i < idle; i++) {
                for (int l = 0; l < loops; l++) {
                    final CompletableFuture<ResponseData> done =
                            sendAsync(client, server.uri(), l == 0 ? "warm" + i : "other" + i + "-" + l);
                    if (l == 0) {
                        warm.add(done);
                    } else {
                        assertThat(done.get(30, TimeUnit.SECONDS).error()).isNull();
                    }
                }
            }
            for (final CompletableFuture<ResponseData> f : warm) {
                assertThat(f.get(30, TimeUnit.SECONDS).error()).isNull();
            }
            final List<CompletableFuture<ResponseData>> queued = new ArrayList<>();
            final CompletableFuture<ResponseData> stalled = new CompletableFuture<>();
            final Thread closer = new Thread(client::close, "closer");
            client.send(request(server.uri()), "stall", "c-stall", new InFlight(), r -> {
                // On the first loop: hand requests over (they stay on this loop), start the close, and return once
                // the close has stopped this loop and waits for it.
                for (int i = 0; i < idle - 1; i++) {
                    queued.add(sendAsync(client, server.uri(), "queued" + i));
                }
                closer.start();
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                while (closer.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < deadline) {
                    Thread.onSpinWait();
                }
                stalled.complete(r);
            });
            assertThat(stalled.get(30, TimeUnit.SECONDS).error()).isNull();
            for (final CompletableFuture<ResponseData> f : queued) {
                assertThat(f.get(30, TimeUnit.SECONDS).error()).isNotNull();
            }
            closer.join(30_000);
            assertThat(server.requestHeads).noneMatch(h -> h.contains("X-Request-ID: queued"));
        }
    }

    private static PreparedRequest request(final URI uri, final Header header, final boolean lastTurn) {
        return new PreparedRequest(uri, new Header[] {new BasicHeader("Content-Type", "application/json"), header},
                "{\"model\":\"m\",\"messages\":[]}".getBytes(StandardCharsets.UTF_8), false,
                PreparedRequest.DEFAULT_SESSION_HEADER, ResponseParser.OPENAI, lastTurn);
    }

    private static InferenceClient client(final io.aiperf.engine.config.ConnectionReuse reuse) {
        return new InferenceClient(4, 30, System::nanoTime, RunLimits.defaults(), io.aiperf.engine.config.NetworkConfig.defaults(), reuse);
    }

    private static void head(final OutputStream out, final String head) throws IOException {
        out.write(head.getBytes(StandardCharsets.US_ASCII));
    }

    @Test
    void theUsersHostAndHeadersReachTheWireAsWritten() throws Exception {
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            ok(out, "");
            return true;
        }); InferenceClient client = client(2, 30)) {
            final PreparedRequest r = new PreparedRequest(server.uri(), new Header[] {
                    new BasicHeader("Host", "model-a.example.com"), new BasicHeader("X-Route", "Blue Team"),
                    new BasicHeader("Content-Type", "application/json")},
                    "{}".getBytes(StandardCharsets.UTF_8), false);
            final CompletableFuture<ResponseData> done = new CompletableFuture<>();
            client.send(r, "r0", "c0", new InFlight(), done::complete);
            assertThat(done.get(30, TimeUnit.SECONDS).error()).isNull();
            final String head = server.requestHeads.get(0);
            assertThat(head).contains("\r\nHost: model-a.example.com\r\n").contains("\r\nX-Route: Blue Team\r\n");
            assertThat(head.split("(?i)\r\nhost:", -1)).as("one Host header").hasSize(2);
        }
    }

    @Test
    void aServerThatClosesAfterEachAnswerLosesNoRequestAndIsNoLongerPooled() throws Exception {
        // Closed silently right after every answer, and the next request sent at once: the race every pooled
        // client loses now and then. A request caught in it is resent; once the server is known, none is.
        final List<String> warnings = new CopyOnWriteArrayList<>();
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            ok(out, "");
            return false;
        }); InferenceClient client = client(4, 30)) {
            client.onWarning(warnings::add);
            final List<ResponseData> results = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                results.add(sendAndWait(client, request(server.uri()), i));
            }
            assertThat(results).allSatisfy(r -> assertThat(r.error()).isNull());
            assertThat(server.requestHeads).as("every request reached the server once").hasSize(40);
            assertThat(results.get(39).transport().closesAfterResponse()).isTrue();
            assertThat(server.requestHeads.get(39)).contains("Connection: close\r\n");
            assertThat(warnings).hasSize(1);
            assertThat(warnings.get(0)).contains("closes kept-alive connections right after its answers");
        }
    }

    @Test
    void aRequestLostWithoutAnAnswerOnAReusedConnectionGoesAgainOnceOnANewOne() throws Exception {
        // Whether the server read it cannot be told from the client (a half-closed socket takes bytes it never
        // answers): like curl and browsers, the client sends it again once, on a connection of its own.
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            if (n == 1) {
                return false; // read the second request, then ended the connection without a byte
            }
            ok(out, "");
            return true;
        }); InferenceClient client = client(1, 30)) {
            assertThat(sendAndWait(client, request(server.uri()), 0).error()).isNull();
            final ResponseData resent = sendAndWait(client, request(server.uri()), 1);
            assertThat(resent.error()).isNull();
            assertThat(resent.transport().retried()).isTrue();
            assertThat(server.requestHeads).hasSize(3);
            assertThat(server.connections.get()).isEqualTo(2);
        }
    }

    @Test
    void aRequestLostWithoutAnAnswerOnANewConnectionIsAnErrorAndNotSentAgain() throws Exception {
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> false);
             InferenceClient client = client(1, 30)) {
            final ResponseData dropped = sendAndWait(client, request(server.uri()), 0);
            assertThat(dropped.error()).isNotNull();
            assertThat(dropped.error().type()).isEqualTo("ConnectionClosedException");
            assertThat(dropped.transport().retried()).isFalse();
            assertThat(server.requestHeads).hasSize(1);
        }
    }

    @Test
    void aRequestThatGotPartOfItsAnswerAndLostTheRestIsAnErrorAndNotSentAgain() throws Exception {
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            if (n == 0) {
                ok(out, "");
                return true;
            }
            head(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"id\"");
            return false;
        }); InferenceClient client = client(1, 30)) {
            assertThat(sendAndWait(client, request(server.uri()), 0).error()).isNull();
            final ResponseData cut = sendAndWait(client, request(server.uri()), 1);
            assertThat(cut.error()).isNotNull();
            assertThat(cut.transport().retried()).isFalse();
            assertThat(server.requestHeads).hasSize(2);
        }
    }

    @Test
    void neverOpensAConnectionPerRequestAndSaysSo() throws Exception {
        final List<String> warnings = new CopyOnWriteArrayList<>();
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            ok(out, "Connection: close\r\n"); // as servers answer a request that asked for its close
            return true;
        }); InferenceClient client = client(io.aiperf.engine.config.ConnectionReuse.NEVER)) {
            client.onWarning(warnings::add);
            for (int i = 0; i < 3; i++) {
                assertThat(sendAndWait(client, request(server.uri()), i).error()).isNull();
            }
            assertThat(warnings).as("the close it asked for is no news").isEmpty();
            assertThat(server.connections.get()).isEqualTo(3);
            assertThat(server.requestHeads).allSatisfy(h -> assertThat(h).contains("Connection: close\r\n"));
        }
    }

    @Test
    void stickySessionsKeepTheirConnectionUntilTheirLastTurn() throws Exception {
        final List<String> seen = new CopyOnWriteArrayList<>();
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            seen.add(n + " " + head.substring(head.indexOf("X-Request-ID: ") + 14, head.indexOf("X-Request-ID: ") + 16));
            ok(out, "");
            return true;
        }); InferenceClient client = client(io.aiperf.engine.config.ConnectionReuse.STICKY_USER_SESSIONS)) {
            final Header h = new BasicHeader("X-Any", "1");
            for (final String[] turn : new String[][] {{"a0", "s1", "false"}, {"b0", "s2", "false"},
                                                       {"a1", "s1", "false"}, {"b1", "s2", "true"},
                                                       {"a2", "s1", "true"}}) {
                final CompletableFuture<ResponseData> done = new CompletableFuture<>();
                client.send(request(server.uri(), h, Boolean.parseBoolean(turn[2])), turn[0], turn[1], new InFlight(),
                        done::complete);
                assertThat(done.get(30, TimeUnit.SECONDS).error()).isNull();
            }
            // Each conversation on a connection of its own, turn after turn; closed after its last turn.
            assertThat(server.connections.get()).isEqualTo(2);
            assertThat(seen).containsExactly("0 a0", "0 b0", "1 a1", "1 b1", "2 a2");
            while (server.ended.get() < 2) {
                Thread.onSpinWait(); // both conversations ended: the client closes their connections
            }
        }
    }

    /**
     * A server seen closing after its answers gets a new connection for every request, sticky conversations too: a
     * connection kept for a conversation's next turn would race the server's close (and lose the turn's request).
     */
    @Test
    void stickySessionsTakeNewConnectionsOnceTheServerIsSeenClosingAfterItsAnswers() throws Exception {
        final List<String> seen = new CopyOnWriteArrayList<>();
        final List<String> warnings = new CopyOnWriteArrayList<>();
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            final String id = head.substring(head.indexOf("X-Request-ID: ") + 14, head.indexOf("X-Request-ID: ") + 16);
            seen.add(n + " " + id);
            // Conversation b's server answers and says it closes: the client learns it closes after its answers.
            ok(out, id.startsWith("b") ? "Connection: close\r\n" : "");
            return !id.startsWith("b");
        }); InferenceClient client = client(io.aiperf.engine.config.ConnectionReuse.STICKY_USER_SESSIONS)) {
            client.onWarning(warnings::add);
            final Header h = new BasicHeader("X-Any", "1");
            for (final String[] turn : new String[][] {{"a0", "s1", "false"}, {"b0", "s2", "true"},
                                                       {"a1", "s1", "true"}}) {
                final CompletableFuture<ResponseData> done = new CompletableFuture<>();
                client.send(request(server.uri(), h, Boolean.parseBoolean(turn[2])), turn[0], turn[1], new InFlight(),
                        done::complete);
                assertThat(done.get(30, TimeUnit.SECONDS).error()).isNull();
            }
            assertThat(warnings).anyMatch(w -> w.contains("every request to it now gets a new connection"));
            // a1 went on a new connection (its first request), not on the one kept for conversation a.
            assertThat(seen).containsExactly("0 a0", "0 b0", "0 a1");
            assertThat(server.connections.get()).isEqualTo(3);
        }
    }

    @Test
    void a307IsFollowedWithTheSameMethodAndBodyAndCounted() throws Exception {
        final List<String> warnings = new CopyOnWriteArrayList<>();
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            if (head.startsWith("POST /v1/")) {
                head(out, "HTTP/1.1 307 Temporary Redirect\r\nLocation: /v2/chat/completions\r\nContent-Length: 5\r\n"
                        + "\r\nmoved");
            } else if (head.startsWith("POST /v2/")) {
                head(out, "HTTP/1.1 308 Permanent Redirect\r\nLocation: /v3/chat\r\nContent-Length: 0\r\n\r\n");
            } else {
                ok(out, "");
            }
            return true;
        }); InferenceClient client = client(2, 30)) {
            client.onWarning(warnings::add);
            final ResponseData r = sendAndWait(client, request(server.uri()), 0);
            assertThat(r.error()).isNull();
            assertThat(r.content()).isEqualTo("hello there");
            assertThat(r.transport().redirects()).isEqualTo(2);
            assertThat(server.requestHeads).extracting(h -> h.substring(0, h.indexOf(" HTTP/1.1")))
                    .containsExactly("POST /v1/chat/completions", "POST /v2/chat/completions", "POST /v3/chat");
            assertThat(server.requestBodies).containsOnly("{\"model\":\"m\",\"messages\":[]}");
            assertThat(warnings).hasSize(1);
            assertThat(warnings.get(0)).contains("redirect");
        }
    }

    @Test
    void aRedirectToAnotherOriginNeverTakesTheCredentialsThere() throws Exception {
        try (ScriptedServer elsewhere = new ScriptedServer((n, head, out) -> {
            ok(out, "");
            return true;
        }); ScriptedServer server = new ScriptedServer((n, head, out) -> {
            head(out, "HTTP/1.1 307 Temporary Redirect\r\nLocation: " + elsewhere.uri() + "\r\nContent-Length: 0\r\n\r\n");
            return true;
        }); InferenceClient client = client(2, 30)) {
            final ResponseData r = sendAndWait(client, request(server.uri()), 0);
            assertThat(r.error()).isNotNull();
            assertThat(r.error().code()).isEqualTo(307);
            assertThat(r.error().message()).contains(elsewhere.uri().toString())
                    .contains("credentials").contains("never sent to another origin");
            assertThat(elsewhere.requestHeads).as("the other origin saw nothing").isEmpty();
            // Without credentials, the same redirect is followed.
            final ResponseData open = sendAndWait(client, new PreparedRequest(server.uri(), new Header[] {
                new BasicHeader("Content-Type", "application/json")},
                    "{\"model\":\"m\",\"messages\":[]}".getBytes(StandardCharsets.UTF_8), false), 1);
            assertThat(open.error()).isNull();
            assertThat(elsewhere.requestHeads).hasSize(1);
        }
    }

    @Test
    void noRedirectGoesFromHttpsToHttpOrCarriesCredentialsElsewhere() {
        final PreparedRequest secure = request(URI.create("https://a.example/v1/chat/completions"));
        assertThat(Redirects.refusal(secure, URI.create("http://a.example/v1/chat/completions"))).contains("https");
        assertThat(Redirects.refusal(secure, URI.create("https://a.example/v2/chat"))).isNull();
        assertThat(Redirects.refusal(secure, URI.create("https://b.example/v1/chat"))).contains("credentials");
        final PreparedRequest userInUrl = new PreparedRequest(URI.create("http://u:p@a.example/v1/chat"),
                new Header[0], new byte[0], false);
        assertThat(Redirects.refusal(userInUrl, URI.create("http://b.example/v1/chat"))).contains("credentials");
        final PreparedRequest cookie = new PreparedRequest(URI.create("http://a.example/v1/chat"),
                new Header[] {new BasicHeader("Cookie", "s=1")}, new byte[0], false);
        assertThat(Redirects.refusal(cookie, URI.create("http://a.example:81/v1/chat"))).contains("credentials");
    }

    @Test
    void a302ToAPostIsAnErrorThatNamesTheLocation() throws Exception {
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            head(out, "HTTP/1.1 302 Found\r\nLocation: http://elsewhere.example/v1/chat\r\nContent-Length: 0\r\n\r\n");
            return true;
        }); InferenceClient client = client(2, 30)) {
            final ResponseData r = sendAndWait(client, request(server.uri()), 0);
            assertThat(r.error()).isNotNull();
            assertThat(r.error().code()).isEqualTo(302);
            assertThat(r.error().message()).contains("http://elsewhere.example/v1/chat");
            assertThat(server.requestHeads).hasSize(1);
        }
    }

    @Test
    void aFoldedTransferEncodingIsAnsweredAndConflictingLengthsAreAnErrorAtOnce() throws Exception {
        // The server keeps the connection open: a client that missed the framing would wait for the timeout.
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            if (head.contains("X-Request-ID: r0")) {
                head(out, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding:\r\n chunked\r\n\r\n"
                        + Integer.toHexString(OK_BODY.length()) + "\r\n" + OK_BODY + "\r\n0\r\n\r\n");
            } else {
                head(out, "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 50\r\n\r\n{\"a\":");
            }
            return true;
        }); InferenceClient client = client(2, 600)) {
            final ResponseData folded = sendAndWait(client, request(server.uri()), 0);
            assertThat(folded.error()).isNull();
            assertThat(folded.content()).isEqualTo("hello there");
            final ResponseData conflicting = sendAndWait(client, request(server.uri()), 1);
            assertThat(conflicting.error()).isNotNull();
            assertThat(conflicting.error().message()).contains("Conflicting Content-Length");
        }
    }

    @Test
    void aNameThatDoesNotResolveIsAnErrorRecordNamingIt() throws Exception {
        try (InferenceClient client = client(2, 30)) {
            final ResponseData r = sendAndWait(client, request(URI.create("http://no-such-host.invalid:8000/v1/chat")), 0);
            assertThat(r.error()).isNotNull();
            assertThat(r.error().type()).isEqualTo("UnknownHostException");
            assertThat(r.error().message()).contains("no-such-host.invalid");
        }
    }

    @Test
    void onApacheHttpClientAHeadWithoutEndIsAnErrorAtItsFieldLimit() throws Exception {
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            head(out, "HTTP/1.1 200 OK\r\n");
            for (int i = 0; i < 10_000; i++) { // 10,000 fields of 100 bytes: far more than any real head
                head(out, "X-Field-" + i + ": " + "a".repeat(88) + "\r\n");
            }
            head(out, "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
            return false;
        }); InferenceClient client = new InferenceClient(1, 30, System::nanoTime, RunLimits.defaults(),
                io.aiperf.engine.config.NetworkConfig.defaults(), false)) {
            final ResponseData r = sendAndWait(client, request(server.uri()), 0);
            assertThat(r.error()).isNotNull();
            assertThat(r.error().message()).containsIgnoringCase("header");
        }
    }

    @Test
    void onApacheHttpClientAHeadOverTheLimitIsAnErrorThoughEachLineAndTheFieldCountLookNormal() throws Exception {
        // 200 fields of 8 KiB: 1.6 MiB, over the 1 MiB head limit; each line far under it (256 fields of 1 MiB each
        // were let through, 256 MiB for one head).
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            head(out, "HTTP/1.1 200 OK\r\n");
            for (int i = 0; i < 200; i++) {
                head(out, "X-Field-" + i + ": " + "a".repeat(8 * 1024 - 20) + "\r\n");
            }
            head(out, "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}");
            return false;
        }); InferenceClient client = new InferenceClient(1, 30, System::nanoTime, RunLimits.defaults(),
                io.aiperf.engine.config.NetworkConfig.defaults(), false)) {
            final ResponseData r = sendAndWait(client, request(server.uri()), 0);
            assertThat(r.error()).isNotNull();
            assertThat(r.error().message()).containsIgnoringCase("header");
        }
    }

    @Test
    void apacheHeadsStayWithinTheHeadLimit() {
        for (final int limit : new int[] {1 << 20, 4 << 20, 64 << 10, 16 << 10, 1 << 10}) {
            assertThat((long) ApacheLimits.maxLineLength(limit) * ApacheLimits.MAX_FIELDS)
                    .isLessThanOrEqualTo(Math.max(limit, ApacheLimits.MAX_FIELDS * ApacheLimits.MIN_LINE));
            assertThat(ApacheLimits.maxLineLength(limit)).isGreaterThanOrEqualTo(Math.min(limit, 8 * 1024));
        }
    }

    @Test
    void onApacheHttpClientAServerThatClosesAfterEachAnswerLosesNoRequest() throws Exception {
        try (ScriptedServer server = new ScriptedServer((n, head, out) -> {
            ok(out, "");
            return false;
        }); InferenceClient client = new InferenceClient(4, 30, System::nanoTime, RunLimits.defaults(),
                io.aiperf.engine.config.NetworkConfig.defaults(), false)) {
            final List<ResponseData> results = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                results.add(sendAndWait(client, request(server.uri()), i));
            }
            assertThat(results).allSatisfy(r -> assertThat(r.error()).isNull());
            assertThat(server.requestHeads).as("every request reached the server once").hasSize(40);
        }
    }
}
