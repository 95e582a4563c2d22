package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.RunLimits;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hc.core5.http.Header;
import org.junit.jupiter.api.Test;

class ResponsePathWarmupTest {
    private static PreparedRequest sample(final boolean streaming, final ResponseParser parser) {
        return new PreparedRequest(URI.create("http://127.0.0.1:1/v1/chat/completions"), new Header[0], new byte[0],
                streaming, PreparedRequest.DEFAULT_SESSION_HEADER, parser);
    }

    @Test
    void streamedAndWholeAnswersRunThroughTheWholePathUpToTheRoundLimit() {
        for (final boolean streaming : new boolean[] {true, false}) {
            final AtomicInteger parsed = new AtomicInteger();
            final ResponseParser counting = (buf, off, len, out) -> {
                parsed.incrementAndGet();
                ChunkParser.parse(buf, off, len, out);
            };
            final int rounds = ResponsePathWarmup.run(sample(streaming, counting), RunLimits.defaults(),
                    System::nanoTime, 60_000_000_000L, 50);
            assertThat(rounds).isEqualTo(50);
            // Every synthetic event reached the parser: 16 per streamed answer, one body per whole one.
            assertThat(parsed.get()).isEqualTo(streaming ? 50 * 16 : 50);
        }
    }

    @Test
    void theEndpointsShapeAloneIsEnoughWithNoRequestBuiltYet() {
        // A cell starts the warmup before its prompts exist: streaming and the parser are all it is given.
        final AtomicInteger parsed = new AtomicInteger();
        final int rounds = ResponsePathWarmup.run(true, (buf, off, len, out) -> {
            parsed.incrementAndGet();
            ChunkParser.parse(buf, off, len, out);
        }, RunLimits.defaults(), System::nanoTime, 60_000_000_000L, 50);
        assertThat(rounds).isEqualTo(50);
        assertThat(parsed.get()).isEqualTo(50 * 16);
    }

    @Test
    void endsOnItsOwnOnceTheRoundsStopGettingFaster() {
        // No time budget and no round limit to speak of: only the settling rule can end it, and it must. Each
        // window after the first four must be 10% faster than the best before it to go on, which cannot last.
        final int rounds = ResponsePathWarmup.run(sample(true, ChunkParser::parse), RunLimits.defaults(),
                System::nanoTime, 600_000_000_000L, 10_000_000);
        assertThat(rounds).isGreaterThan(4 * ResponsePathWarmup.WINDOW).isLessThan(1_000_000)
                .isEqualTo(rounds / ResponsePathWarmup.WINDOW * ResponsePathWarmup.WINDOW);
    }

    @Test
    void aParserThatRejectsTheShapeEndsTheWarmupAtOnce() {
        final int rounds = ResponsePathWarmup.run(sample(false, (buf, off, len, out) -> {
            throw new IllegalStateException("not my shape");
        }), RunLimits.defaults(), System::nanoTime, 60_000_000_000L, 50);
        assertThat(rounds).isZero();
    }
}
