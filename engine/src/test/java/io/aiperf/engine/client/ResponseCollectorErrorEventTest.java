package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.RunLimits;
import io.aiperf.engine.record.ResponseData;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** An SSE {@code event: error} inside a 200 stream fails the request with what the server said. */
class ResponseCollectorErrorEventTest {
    private static ResponseData stream(final String body) throws Exception {
        final String answer = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nContent-Length: "
                + body.getBytes(StandardCharsets.UTF_8).length + "\r\n\r\n" + body;
        final ResponseCollector collector = new ResponseCollector(System::nanoTime, true, System.nanoTime(), false,
                RunLimits.defaults(), ResponseParser.OPENAI);
        final Http1ResponseReader reader = new Http1ResponseReader();
        reader.reset(collector.asSink());
        assertThat(reader.feed(ByteBuffer.wrap(answer.getBytes(StandardCharsets.UTF_8)), System.nanoTime())).isTrue();
        return collector.result();
    }

    @Test
    void anErrorEventWithoutAnErrorFieldKeepsItsDataAsTheMessage() throws Exception {
        final ResponseData r = stream("data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n"
                + "event: error\ndata: {\"message\":\"CUDA out of memory\",\"code\":503}\n\n");
        assertThat(r.error()).isNotNull();
        assertThat(r.error().type()).isEqualTo("SSEError");
        assertThat(r.error().message()).contains("CUDA out of memory");
    }

    @Test
    void anErrorFieldStaysTheMessage() throws Exception {
        final ResponseData r = stream("event: error\ndata: {\"error\":{\"message\":\"overloaded\",\"type\":\"server_error\"}}\n\n");
        assertThat(r.error()).isNotNull();
        assertThat(r.error().message()).isEqualTo("overloaded");
    }

    @Test
    void llamaCppsErrorFieldIsTheStreamsError() throws Exception {
        // llama.cpp's server writes a failure mid-stream as an "error:" field holding the error object
        final ResponseData r = stream("data: {\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}\n\n"
                + "error: {\"error\":{\"code\":500,\"message\":\"invalid UTF-8\",\"type\":\"server_error\"}}\n\n");
        assertThat(r.error()).isNotNull();
        assertThat(r.error().message()).isEqualTo("invalid UTF-8");
    }
}
