package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.apache.hc.core5.http.ConnectionClosedException;
import org.junit.jupiter.api.Test;

class Http1ResponseReaderTest {
    /** What one response looked like to the sink. */
    private static final class Seen implements Http1ResponseReader.Sink {
        int status = -1;
        String reason;
        String mime;
        long headNanos = -1;
        final ByteArrayOutputStream body = new ByteArrayOutputStream();
        int ends;

        @Override
        public void head(final int s, final String r, final String m, final long nanos) {
            status = s;
            reason = r;
            mime = m;
            headNanos = nanos;
        }

        @Override
        public void body(final ByteBuffer bytes, final boolean end, final long nanos) {
            while (bytes.hasRemaining()) {
                body.write(bytes.get());
            }
            if (end) {
                ends++;
            }
        }

        String text() {
            return body.toString(StandardCharsets.UTF_8);
        }
    }

    private static final String CHUNKED = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n"
            + "e\r\ndata: {\"a\":1}\n\r\n"
            + "F;ext=1\r\ndata: [DONE]\n\n\n\r\n"
            + "0\r\nX-Trailer: t\r\n\r\n";

    /** Feeds the response cut at every pair of points, so where reads are cut can never change the outcome. */
    private static void everySplit(final String response, final String expectedBody, final boolean keepAlive)
            throws IOException {
        final byte[] bytes = response.getBytes(StandardCharsets.UTF_8);
        for (int a = 0; a <= bytes.length; a++) {
            for (int b = a; b <= bytes.length; b += Math.max(1, bytes.length / 17)) {
                final Http1ResponseReader reader = new Http1ResponseReader();
                final Seen seen = new Seen();
                reader.reset(seen);
                boolean done = reader.feed(ByteBuffer.wrap(bytes, 0, a), 1);
                done |= !done && reader.feed(ByteBuffer.wrap(bytes, a, b - a), 2);
                done |= !done && reader.feed(ByteBuffer.wrap(bytes, b, bytes.length - b), 3);
                assertThat(done).as("split at %d/%d", a, b).isTrue();
                assertThat(seen.text()).as("split at %d/%d", a, b).isEqualTo(expectedBody);
                assertThat(seen.ends).isEqualTo(1);
                assertThat(reader.keepAlive()).isEqualTo(keepAlive);
            }
        }
    }

    /** Feeds {@code part} again and again, at most {@code times}; the error that ended it, or null. */
    private static IOException endless(final Http1ResponseReader reader, final String start, final String part,
                                       final int times) {
        try {
            reader.feed(ByteBuffer.wrap(start.getBytes(StandardCharsets.US_ASCII)), 1);
            final byte[] bytes = part.getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < times; i++) {
                reader.feed(ByteBuffer.wrap(bytes), 2);
            }
            return null;
        } catch (IOException e) {
            return e;
        }
    }

    @Test
    void endlessInterimResponsesChunkExtensionsAndTrailersEndAtTheHeadLimit() {
        final int limit = 64 * 1024;
        final String chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n";
        final Map<String, String[]> cases = Map.of(
                "interim responses", new String[] {"", "HTTP/1.1 100 Continue\r\nX: y\r\n\r\n"},
                "chunk extensions", new String[] {chunked + "5;", "a=b;"},
                "trailers", new String[] {chunked + "0\r\n", "X-Trailer: t\r\n"});
        final Map<String, String[]> framing = Map.of(
                "leading zeros in a chunk size", new String[] {chunked, "0"},
                "CRs in a chunk size", new String[] {chunked + "5", "\r"},
                "CRs after a chunk's data", new String[] {chunked + "5\r\nhello", "\r"});
        framing.forEach((what, feed) -> {
            final Http1ResponseReader reader = new Http1ResponseReader(limit);
            reader.reset(new Seen());
            final IOException e = endless(reader, feed[0], feed[1], 1_000_000);
            assertThat(e).as(what).isNotNull();
            assertThat(e.getMessage()).as(what).contains("Malformed chunked body");
        });
        cases.forEach((what, feed) -> {
            final Http1ResponseReader reader = new Http1ResponseReader(limit);
            reader.reset(new Seen());
            final IOException e = endless(reader, feed[0], feed[1], 1_000_000);
            assertThat(e).as(what).isNotNull();
            assertThat(e.getMessage()).as(what).contains("larger than " + limit);
        });
    }

    @Test
    void chunkedBodiesAreDecodedWhereverTheReadsAreCut() throws IOException {
        everySplit(CHUNKED, "data: {\"a\":1}\ndata: [DONE]\n\n\n", true);
    }

    @Test
    void contentLengthBodiesAreDecodedWhereverTheReadsAreCut() throws IOException {
        everySplit("HTTP/1.1 200 OK\r\ncontent-length: 11\r\nContent-Type: application/json\r\n\r\n{\"ok\":true}",
                "{\"ok\":true}", true);
    }

    @Test
    void headFieldsAreRead() throws IOException {
        final Http1ResponseReader reader = new Http1ResponseReader();
        final Seen seen = new Seen();
        reader.reset(seen);
        final ByteBuffer in = ByteBuffer.wrap(CHUNKED.getBytes(StandardCharsets.UTF_8));
        assertThat(reader.feed(in, 42)).isTrue();
        assertThat(seen.status).isEqualTo(200);
        assertThat(seen.reason).isEqualTo("OK");
        assertThat(seen.mime).isEqualTo("text/event-stream");
        assertThat(seen.headNanos).isEqualTo(42);
        assertThat(in.hasRemaining()).isFalse();
    }

    @Test
    void interimResponsesAreSkippedAndErrorsKeepTheirReason() throws IOException {
        final Http1ResponseReader reader = new Http1ResponseReader();
        final Seen seen = new Seen();
        reader.reset(seen);
        final String r = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 503 Service Unavailable\r\nContent-Length: 4\r\n"
                + "Connection: close\r\n\r\nbusy";
        assertThat(reader.feed(ByteBuffer.wrap(r.getBytes(StandardCharsets.US_ASCII)), 1)).isTrue();
        assertThat(seen.status).isEqualTo(503);
        assertThat(seen.reason).isEqualTo("Service Unavailable");
        assertThat(seen.text()).isEqualTo("busy");
        assertThat(reader.keepAlive()).isFalse();
    }

    @Test
    void aHeadTakenInBulkLeavesTheBytesAfterItInTheBuffer() throws IOException {
        // Two answers in one read of a direct buffer that does not start at 0: the first head is copied in bulk,
        // and everything after it (its body, the next answer) must stay in the buffer, where it started.
        final String first = "HTTP/1.1 200 OK\r\nX-Pad: " + "p".repeat(700) + "\r\nContent-Length: 3\r\n\r\none";
        final String second = "HTTP/1.1 201 Created\nContent-Length: 3\n\ntwo";
        final byte[] bytes = ("junk" + first + second).getBytes(StandardCharsets.US_ASCII);
        final ByteBuffer in = ByteBuffer.allocateDirect(bytes.length).put(bytes).flip().position(4);
        final Http1ResponseReader reader = new Http1ResponseReader();
        final Seen one = new Seen();
        reader.reset(one);
        assertThat(reader.feed(in, 1)).isTrue();
        assertThat(one.status).isEqualTo(200);
        assertThat(one.text()).isEqualTo("one");
        assertThat(in.position()).isEqualTo(4 + first.length());
        final Seen two = new Seen();
        reader.reset(two);
        assertThat(reader.feed(in, 2)).isTrue();
        assertThat(two.status).isEqualTo(201);
        assertThat(two.text()).isEqualTo("two");
        assertThat(in.hasRemaining()).isFalse();
    }

    @Test
    void aBodyWithoutLengthEndsWithTheConnection() throws IOException {
        final Http1ResponseReader reader = new Http1ResponseReader();
        final Seen seen = new Seen();
        reader.reset(seen);
        assertThat(reader.feed(ByteBuffer.wrap("HTTP/1.0 200 OK\r\n\r\nabc".getBytes(StandardCharsets.US_ASCII)), 1))
                .isFalse();
        assertThat(reader.endOfInput(2)).isTrue();
        assertThat(seen.text()).isEqualTo("abc");
        assertThat(reader.keepAlive()).isFalse();
    }

    @Test
    void emptyBodiesEndWithTheHead() throws IOException {
        final Http1ResponseReader reader = new Http1ResponseReader();
        final Seen seen = new Seen();
        reader.reset(seen);
        assertThat(reader.feed(ByteBuffer.wrap("HTTP/1.1 204 No Content\r\n\r\n".getBytes(StandardCharsets.US_ASCII)),
                1)).isTrue();
        assertThat(seen.ends).isEqualTo(1);
        assertThat(reader.keepAlive()).isTrue();
    }

    @Test
    void truncatedResponsesAreReportedAsClosedConnections() throws IOException {
        final Http1ResponseReader reader = new Http1ResponseReader();
        reader.reset(new Seen());
        assertThatThrownBy(() -> reader.endOfInput(1)).isInstanceOf(ConnectionClosedException.class)
                .hasMessage("Connection closed by peer");
        reader.reset(new Seen());
        reader.feed(ByteBuffer.wrap("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc".getBytes(StandardCharsets.US_ASCII)), 1);
        assertThat(reader.started()).isTrue();
        assertThatThrownBy(() -> reader.endOfInput(2)).isInstanceOf(ConnectionClosedException.class)
                .hasMessageContaining("Premature end of Content-Length");
    }

    @Test
    void malformedHeadsAndChunksAreErrors() {
        final Http1ResponseReader reader = new Http1ResponseReader();
        reader.reset(new Seen());
        assertThatThrownBy(() -> reader.feed(ByteBuffer.wrap("SSH-2.0-OpenSSH\r\n\r\n".getBytes(StandardCharsets.US_ASCII)), 1))
                .isInstanceOf(IOException.class).hasMessageContaining("status line");
        reader.reset(new Seen());
        assertThatThrownBy(() -> reader.feed(ByteBuffer.wrap(("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "zz\r\n").getBytes(StandardCharsets.US_ASCII)), 1))
                .isInstanceOf(IOException.class).hasMessageContaining("chunk size");
    }

    @Test
    void aFoldedHeaderIsUnfoldedWhereverTheReadsAreCut() throws IOException {
        // RFC 9112, section 5.2: the fold becomes spaces, so the folded Transfer-Encoding still frames the body.
        everySplit("HTTP/1.1 200 OK\r\nTransfer-Encoding:\r\n chunked\r\nX-Long: a,\r\n\tb\r\n\r\n"
                + "3\r\nabc\r\n0\r\n\r\n", "abc", true);
    }

    @Test
    void whitespaceBeforeTheFirstHeaderIsRejectedAtOnce() {
        final Http1ResponseReader reader = new Http1ResponseReader();
        reader.reset(new Seen());
        assertThatThrownBy(() -> reader.feed(ByteBuffer.wrap("HTTP/1.1 200 OK\r\n Content-Length: 3\r\n\r\nabc"
                .getBytes(StandardCharsets.US_ASCII)), 1))
                .isInstanceOf(IOException.class).hasMessageContaining("whitespace before its first header field");
    }

    @Test
    void conflictingContentLengthsAreAnErrorAtOnceAndEqualOnesAreOne() throws IOException {
        for (final String lengths : new String[] {"Content-Length: 3\r\nContent-Length: 4\r\n",
                                                  "Content-Length: 3, 4\r\n"}) {
            final Http1ResponseReader reader = new Http1ResponseReader();
            reader.reset(new Seen());
            assertThatThrownBy(() -> reader.feed(ByteBuffer.wrap(("HTTP/1.1 200 OK\r\n" + lengths + "\r\nabc")
                    .getBytes(StandardCharsets.US_ASCII)), 1))
                    .as(lengths).isInstanceOf(IOException.class).hasMessageContaining("Conflicting Content-Length");
        }
        everySplit("HTTP/1.1 200 OK\r\nContent-Length: 3, 3\r\nContent-Length: 3\r\n\r\nabc", "abc", true);
    }

    @Test
    void theHeadLimitIsTheOneConfigured() throws IOException {
        final String big = "HTTP/1.1 200 OK\r\nX-Big: " + "x".repeat(100_000) + "\r\nContent-Length: 2\r\n\r\nok";
        final Http1ResponseReader byDefault = new Http1ResponseReader(); // 1 MiB: a 100 kB head is fine
        final Seen seen = new Seen();
        byDefault.reset(seen);
        assertThat(byDefault.feed(ByteBuffer.wrap(big.getBytes(StandardCharsets.US_ASCII)), 1)).isTrue();
        assertThat(seen.text()).isEqualTo("ok");
        final Http1ResponseReader small = new Http1ResponseReader(64 * 1024);
        small.reset(new Seen());
        assertThatThrownBy(() -> small.feed(ByteBuffer.wrap(big.getBytes(StandardCharsets.US_ASCII)), 1))
                .isInstanceOf(IOException.class).hasMessageContaining("larger than 65536 bytes");
    }

    @Test
    void locationAndAnAnnouncedCloseAreKept() throws IOException {
        final Http1ResponseReader reader = new Http1ResponseReader();
        reader.reset(new Seen());
        assertThat(reader.feed(ByteBuffer.wrap(("HTTP/1.1 307 Temporary Redirect\r\nLocation: /v2/x\r\n"
                + "Connection: close\r\nContent-Length: 0\r\n\r\n").getBytes(StandardCharsets.US_ASCII)), 1)).isTrue();
        assertThat(reader.location()).isEqualTo("/v2/x");
        assertThat(reader.closeAnnounced()).as("only a success tells how the server treats connections").isFalse();
        assertThat(reader.keepAlive()).isFalse();
        reader.reset(new Seen());
        assertThat(reader.feed(ByteBuffer.wrap(("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII)), 1)).isTrue();
        assertThat(reader.closeAnnounced()).isTrue();
    }

    @Test
    void chunkedFramesTheBodyOnlyAsTheLastCoding() throws IOException {
        everySplit("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, Chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n", "abc", true);
        // Chunked before another coding does not frame the body: it runs to the end of the connection.
        final Http1ResponseReader reader = new Http1ResponseReader();
        final Seen seen = new Seen();
        reader.reset(seen);
        assertThat(reader.feed(ByteBuffer.wrap("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n3\r\n"
                .getBytes(StandardCharsets.US_ASCII)), 1)).isFalse();
        assertThat(seen.text()).isEqualTo("3\r\n");
        assertThat(reader.keepAlive()).isFalse();
    }

    @Test
    void connectionOptionsAreTokensOfWhichCloseWins() throws IOException {
        everySplit("HTTP/1.1 200 OK\r\nConnection: Upgrade, CLOSE \r\nContent-Length: 1\r\n\r\nx", "x", false);
        everySplit("HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 1\r\n\r\nx", "x", true);
        everySplit("HTTP/1.0 200 OK\r\nConnection: keep-alive, close\r\nContent-Length: 1\r\n\r\nx", "x", false);
        // Neither option inside a longer word: "closed" is not "close".
        everySplit("HTTP/1.1 200 OK\r\nConnection: closed\r\nContent-Length: 1\r\n\r\nx", "x", true);
        everySplit("HTTP/1.1 200 OK\r\nX-Note: a line without a colon follows\r\nno colon\r\nContent-Length: 1"
                + "\r\n\r\nx", "x", true);
    }

    @Test
    void aFoldIsUndoneBeforeTheFieldItContinuesIsRead() throws IOException {
        everySplit("HTTP/1.1 200 OK\r\nContent-Length:\r\n 5\r\n\r\nabcde", "abcde", true);
        everySplit("HTTP/1.1 200 OK\r\nContent-Length: 5,\r\n 5\r\n\r\nabcde", "abcde", true);
        // "close x" is one option, not close: a folded value is read whole.
        final Http1ResponseReader reader = new Http1ResponseReader();
        reader.reset(new Seen());
        assertThat(reader.feed(ByteBuffer.wrap(("HTTP/1.1 200 OK\r\nConnection: close\r\n x\r\nContent-Length: 1"
                + "\r\n\r\nx").getBytes(StandardCharsets.US_ASCII)), 1)).isTrue();
        assertThat(reader.keepAlive()).isTrue();
        assertThat(reader.closeAnnounced()).isFalse();
    }

    @Test
    void transferCodingsOutrankTheLengthAndEmptyListElementsAreSkipped() throws IOException {
        everySplit("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, \r\n\r\n3\r\nabc\r\n0\r\n\r\n", "abc", true);
        everySplit("HTTP/1.1 200 OK\r\nTransfer-Encoding: ,chunked,,\r\n\r\n3\r\nabc\r\n0\r\n\r\n", "abc", true);
        final Http1ResponseReader reader = new Http1ResponseReader();
        final Seen seen = new Seen();
        reader.reset(seen);
        assertThat(reader.feed(ByteBuffer.wrap(("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n"
                + "Content-Length: 1\r\n\r\nxyz").getBytes(StandardCharsets.US_ASCII)), 1))
                .as("to the end of the connection").isFalse();
        assertThat(seen.text()).isEqualTo("xyz");
        assertThat(reader.endOfInput(2)).isTrue();
        assertThat(reader.keepAlive()).isFalse();
    }

    @Test
    void closeOnAnyConnectionLineWins() throws IOException {
        everySplit("HTTP/1.1 200 OK\r\nConnection: close\r\nConnection: keep-alive\r\nContent-Length: 1\r\n\r\nx",
                "x", false);
    }
}
