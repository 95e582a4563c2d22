package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
    }, 64);

    private void feed(final String s, final long t) throws ResponseTooLargeException {
        framer.feed(ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8)), t);
    }

    @Test
    void eventsAreDeliveredOnlyWhenComplete() throws Exception {
        feed("data: {\"a\":", 1);
        assertThat(events).isEmpty();
        feed("1}\n\ndata: x\r\n\r\ndata: [DONE]\n", 2);
        feed("\n", 3);
        assertThat(events).containsExactly("data: {\"a\":1}", "data: x", "data: [DONE]");
        assertThat(stamps).containsExactly(2L, 2L, 3L);
    }

    @Test
    void multiByteCharactersSplitAcrossReadsSurvive() throws Exception {
        final byte[] bytes = "data: é\n\n".getBytes(StandardCharsets.UTF_8);
        framer.feed(ByteBuffer.wrap(bytes, 0, 7), 1);
        framer.feed(ByteBuffer.wrap(bytes, 7, bytes.length - 7), 2);
        assertThat(events).containsExactly("data: é");
    }

    @Test
    void anEventLargerThanTheBoundFailsButManyEventsInOneReadDoNot() throws Exception {
        final String many = "data: 0123456789\n\n".repeat(40); // 720 bytes in one read, each event 16 bytes
        feed(many, 1);
        assertThat(events).hasSize(40);
        feed("data: " + "x".repeat(50), 2);
        assertThatThrownBy(() -> feed("y".repeat(20), 3)).isInstanceOf(ResponseTooLargeException.class)
                .hasMessageContaining("more than 64 bytes");
    }

    /** Arbitrary split points never change the events delivered. */
    @Test
    void everySplitPointGivesTheSameEvents() throws Exception {
        final byte[] stream = "data: a\n\ndata: é\r\n\r\n: comment\n\ndata: [DONE]\n\n".getBytes(StandardCharsets.UTF_8);
        for (int cut = 0; cut <= stream.length; cut++) {
            final List<String> got = new ArrayList<>();
            final SseFramer f = new SseFramer((b, off, len, t) -> got.add(new String(b, off, len, StandardCharsets.UTF_8)), 64);
            f.feed(ByteBuffer.wrap(stream, 0, cut), 1);
            f.feed(ByteBuffer.wrap(stream, cut, stream.length - cut), 2);
            f.finish(3);
            assertThat(got).as("cut at " + cut).containsExactly("data: a", "data: é", ": comment", "data: [DONE]");
        }
    }
}
