package io.aiperf.engine.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.aiperf.engine.client.ResponseTooLargeException;
import io.aiperf.engine.client.SseFramer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** Arbitrary bytes, cut at arbitrary points: the events are the same as from one read, and only the bound throws. */
class SseFramerFuzzTest {
    private static final int BOUND = 256;

    @FuzzTest(maxDuration = "10s")
    void splitsNeverChangeTheEvents(final FuzzedDataProvider data) throws Exception {
        final int cuts = data.consumeInt(0, 8);
        final int[] at = new int[cuts];
        for (int i = 0; i < cuts; i++) {
            at[i] = data.consumeInt(0, 1 << 12);
        }
        final byte[] stream = data.consumeRemainingAsBytes();
        final List<String> whole = events(stream, new int[0]);
        final List<String> split = events(stream, at);
        assertThat(split).isEqualTo(whole);
    }

    private static List<String> events(final byte[] stream, final int[] cuts) {
        final List<String> out = new ArrayList<>();
        final SseFramer framer = new SseFramer((b, off, len, t) -> out.add(new String(b, off, len,
                java.nio.charset.StandardCharsets.ISO_8859_1)), BOUND);
        int from = 0;
        try {
            for (final int cut : java.util.Arrays.stream(cuts).sorted().toArray()) {
                final int to = Math.min(stream.length, cut);
                if (to > from) {
                    framer.feed(ByteBuffer.wrap(stream, from, to - from), 1);
                    from = to;
                }
            }
            framer.feed(ByteBuffer.wrap(stream, from, stream.length - from), 2);
            framer.finish(3);
        } catch (ResponseTooLargeException bounded) {
            out.add("<too large>");
        }
        return out;
    }
}
