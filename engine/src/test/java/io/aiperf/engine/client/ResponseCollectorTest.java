package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.RunLimits;
import io.aiperf.engine.record.ResponseData;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * What one response becomes, read by read, with the stamps given by hand: each content event carries the arrival of
 * the read that completed it, the send stamp is where latencies start, and a body that is not what was asked for is
 * told apart.
 */
class ResponseCollectorTest {
    private static final long SENT = 1_000_000_000L;

    private static ResponseCollector collector(final boolean streaming) {
        final ResponseCollector c = new ResponseCollector(() -> {
            throw new AssertionError("the collector reads no clock of its own here");
        }, streaming, SENT - 5_000, false, RunLimits.defaults(), ResponseParser.OPENAI);
        c.markSent(SENT);
        return c;
    }

    private static ByteBuffer bytes(final String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
    }

    private static String chunk(final String text) {
        return "data: {\"choices\":[{\"delta\":{\"content\":\"" + text + "\"}}]}\n\n";
    }

    /** A JSON answer whose body buffer is sized by its Content-Length, read in two reads of the given split. */
    private static ResponseData sizedAnswer(final int status, final String body, final int split) throws Exception {
        final ResponseCollector c = collector(false);
        final Http1ResponseReader reader = new Http1ResponseReader();
        reader.reset(c.asSink(reader));
        final String whole = "HTTP/1.1 " + status + " X\r\nContent-Type: application/json\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
        reader.feed(bytes(whole.substring(0, split)), SENT + 1_000_000L);
        assertThat(reader.feed(bytes(whole.substring(split)), SENT + 2_000_000L)).isTrue();
        return c.result();
    }

    @Test
    void bodiesSizedByTheirLengthAreReadWhole() throws Exception {
        final String text = "w".repeat(100_000); // beyond the 64 KiB a body's buffer starts with at most
        final ResponseData big = sizedAnswer(200, "{\"choices\":[{\"message\":{\"content\":\"" + text + "\"}}]}", 90);
        assertThat(big.error()).isNull();
        assertThat(big.content()).isEqualTo(text);
        final ResponseData small = sizedAnswer(200, "{\"choices\":[{\"message\":{\"content\":\"hi\"}}]}", 70);
        assertThat(small.content()).isEqualTo("hi");
        assertThat(sizedAnswer(200, "", 60).error().type()).as("an empty body is no answer")
                .isEqualTo("InvalidResponseError");
        final ResponseData refused = sizedAnswer(503, "busy ".repeat(2_000), 80);
        assertThat(refused.error().code()).isEqualTo(503);
        assertThat(refused.error().message()).startsWith("busy busy").hasSizeLessThanOrEqualTo(4096);
    }

    @Test
    void eachEventIsStampedWithTheReadThatCompletedIt() throws Exception {
        final ResponseCollector c = collector(true);
        final Http1ResponseReader reader = new Http1ResponseReader();
        reader.reset(c.asSink());
        final String one = chunk("Hello");
        final String two = chunk(" world");
        final String usage = "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":2,"
                + "\"total_tokens\":7}}\n\n";
        // head and the first event in one read; the second event split across two reads; usage and [DONE] last
        reader.feed(bytes("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                + Integer.toHexString(one.length()) + "\r\n" + one + "\r\n"), SENT + 20_000_000L);
        final int half = two.length() / 2;
        reader.feed(bytes(Integer.toHexString(two.length()) + "\r\n" + two.substring(0, half)), SENT + 25_000_000L);
        reader.feed(bytes(two.substring(half) + "\r\n"), SENT + 27_000_000L);
        final String tail = usage + "data: [DONE]\n\n";
        assertThat(reader.feed(bytes(Integer.toHexString(tail.length()) + "\r\n" + tail + "\r\n0\r\n\r\n"),
                SENT + 30_000_000L)).isTrue();
        final ResponseData r = c.result();
        assertThat(r.error()).isNull();
        assertThat(r.startPerfNanos()).as("latencies count from the send").isEqualTo(SENT);
        assertThat(r.content()).isEqualTo("Hello world");
        assertThat(r.contentCount()).isEqualTo(2);
        assertThat(Arrays.copyOf(r.contentPerfNanos(), r.contentCount()))
                .containsExactly(SENT + 20_000_000L, SENT + 27_000_000L);
        assertThat(r.usage().promptTokens()).isEqualTo(5);
        assertThat(r.usage().completionTokens()).isEqualTo(2);
        assertThat(r.streamed()).isTrue();
    }

    @Test
    void aWholeJsonBodyIsOneContentStampedAtItsLastByteAndNotTakenForAStream() throws Exception {
        final ResponseCollector c = collector(true); // asked for a stream, answered with one JSON body
        final Http1ResponseReader reader = new Http1ResponseReader();
        reader.reset(c.asSink());
        final String body = "{\"choices\":[{\"message\":{\"content\":\"all at once\"}}],"
                + "\"usage\":{\"prompt_tokens\":3,\"completion_tokens\":3,\"total_tokens\":6}}";
        reader.feed(bytes("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + body.length()
                + "\r\n\r\n" + body.substring(0, 10)), SENT + 40_000_000L);
        assertThat(reader.feed(bytes(body.substring(10)), SENT + 41_000_000L)).isTrue();
        final ResponseData r = c.result();
        assertThat(r.error()).isNull();
        assertThat(r.content()).isEqualTo("all at once");
        assertThat(r.contentCount()).isEqualTo(1);
        assertThat(r.contentPerfNanos()[0]).isEqualTo(SENT + 41_000_000L);
        assertThat(r.streamed()).as("no streaming metrics for a JSON answer to a streaming request").isFalse();
    }

    @Test
    void aServerErrorBecomesAnErrorRecordWithItsStatusAndMessage() throws Exception {
        final ResponseCollector c = collector(false);
        final Http1ResponseReader reader = new Http1ResponseReader();
        reader.reset(c.asSink());
        final String body = "{\"error\":{\"message\":\"model is loading\",\"type\":\"server_error\"}}";
        assertThat(reader.feed(bytes("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n"
                + "Content-Length: " + body.length() + "\r\n\r\n" + body), SENT + 3_000_000L)).isTrue();
        final ResponseData r = c.result();
        assertThat(r.error()).isNotNull();
        assertThat(r.error().code()).isEqualTo(503);
        assertThat(r.error().message()).contains("model is loading");
        assertThat(r.content()).isNullOrEmpty();
    }

    /**
     * What the HTTP trace metrics read off the wire: the body's bytes without the chunked framing, one count per
     * socket read however many chunks it carried, the end of the write, the body's size and a new connection.
     */
    @Test
    void theWireCountsSocketReadsAndBodyBytes() throws Exception {
        final ResponseCollector c = collector(true);
        c.markWritten(SENT + 400);
        c.bodyBytes(321);
        c.markNewConnection();
        final Http1ResponseReader reader = new Http1ResponseReader();
        reader.reset(c.asSink());
        final String one = chunk("a");
        final String two = chunk("b");
        final String done = "data: [DONE]\n\n";
        // three chunks of the body in the first read, the last one and the end in a second
        reader.feed(bytes("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
                + Integer.toHexString(one.length()) + "\r\n" + one + "\r\n"
                + Integer.toHexString(two.length()) + "\r\n" + two + "\r\n"
                + Integer.toHexString(one.length()) + "\r\n" + one + "\r\n"), SENT + 10_000_000L);
        assertThat(reader.feed(bytes(Integer.toHexString(done.length()) + "\r\n" + done + "\r\n0\r\n\r\n"),
                SENT + 12_000_000L)).isTrue();
        final io.aiperf.engine.record.TransportTimes.Wire w = c.result().transport().wire();
        assertThat(w.reads()).as("socket reads, not chunks").isEqualTo(2);
        assertThat(w.bytesReceived()).isEqualTo(2L * one.length() + two.length() + done.length());
        assertThat(w.firstByteNanos()).isEqualTo(SENT + 10_000_000L);
        assertThat(w.lastByteNanos()).isEqualTo(SENT + 12_000_000L);
        assertThat(w.writtenNanos()).isEqualTo(SENT + 400);
        assertThat(w.bytesSent()).isEqualTo(321);
        assertThat(w.newConnection()).isTrue();
    }
}
