package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SseFramerTest {
    private final List<String> events = new ArrayList<>();
    private final List<Long> stamps = new ArrayList<>();
    private final SseFramer framer = new SseFramer((b, off, len, t) -> {
        events.add(new String(b, off, len, StandardCharsets.UTF_8));
        stamps.add(t);
    });

    private void feed(final String s, final long t) {
        framer.feed(ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8)), t);
    }

    @Test
    void eventsAreDeliveredOnlyWhenComplete() {
        feed("data: {\"a\":", 1);
        assertThat(events).isEmpty();
        feed("1}\n\ndata: x\r\n\r\ndata: [DONE]\n", 2);
        feed("\n", 3);
        assertThat(events).containsExactly("data: {\"a\":1}", "data: x", "data: [DONE]");
        assertThat(stamps).containsExactly(2L, 2L, 3L);
    }

    @Test
    void multiByteCharactersSplitAcrossReadsSurvive() {
        final byte[] bytes = "data: é\n\n".getBytes(StandardCharsets.UTF_8);
        framer.feed(ByteBuffer.wrap(bytes, 0, 7), 1);
        framer.feed(ByteBuffer.wrap(bytes, 7, bytes.length - 7), 2);
        assertThat(events).containsExactly("data: é");
    }
}
