package io.aiperf.engine.hooks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.config.ResetKvCacheConfig;
import io.aiperf.engine.time.Clock;
import io.aiperf.engine.time.Sleeper;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Retry classes and backoff of the reset, on a manual clock (the control-hooks contract in src-docs/control-hooks.md). */
class KvCacheResetTest {
    private long now;
    private final List<Long> sleeps = new ArrayList<>();
    private final Clock clock = () -> now;
    private final Sleeper sleeper = nanos -> {
        sleeps.add(nanos / 1_000_000_000L);
        now += nanos;
    };

    private ControlTransport answers(final Object... outcomes) {
        final Deque<Object> q = new ArrayDeque<>(List.of(outcomes));
        return (url, timeout) -> {
            final Object o = q.isEmpty() ? outcomes[outcomes.length - 1] : q.poll();
            if (o instanceof IOException e) {
                throw e;
            }
            return (Integer) o;
        };
    }

    @Test
    void backoffDoublesUpToEightSecondsWithinTheBudget() {
        final List<String> said = new ArrayList<>();
        final HookLog log = new HookLog().onRetry(said::add);
        final KvCacheReset reset = new KvCacheReset(answers(503), clock, sleeper, log);
        assertThatThrownBy(() -> reset.run(List.of("http://h:1"), new ResetKvCacheConfig("/r", 30, 60)))
                .isInstanceOf(HookException.class).hasMessageContaining("status 503");
        assertThat(sleeps).containsExactly(1L, 2L, 4L, 8L, 8L, 8L, 8L, 8L, 8L);
        // each wait is said as it begins: a minute of retries is never silent
        assertThat(said).hasSize(9);
        assertThat(said.get(0)).contains("reset_kv_cache http://h:1/r").contains("status 503")
                .contains("trying again in 1 s").contains("attempt 2");
        assertThat(log.calls().get(0).attempts()).isEqualTo(10);
    }

    @Test
    void transportErrorsAndBusyStatusesRetryOthersDoNot() throws Exception {
        final HookLog log = new HookLog();
        new KvCacheReset(answers(new IOException("refused"), 409, 423, 429, 200), clock, sleeper, log)
                .run(List.of("http://h:1"), ResetKvCacheConfig.defaults());
        assertThat(log.calls().get(0).attempts()).isEqualTo(5);
        for (final int status : new int[] {400, 401, 403, 404, 500}) {
            final HookLog l = new HookLog();
            assertThatThrownBy(() -> new KvCacheReset(answers(status), clock, sleeper, l)
                    .run(List.of("http://h:1"), ResetKvCacheConfig.defaults())).isInstanceOf(HookException.class);
            assertThat(l.calls().get(0).attempts()).as("status %d", status).isEqualTo(1);
        }
    }

    @Test
    void firstFailingOriginStopsTheRest() {
        final List<String> posted = new ArrayList<>();
        final ControlTransport t = (url, timeout) -> {
            posted.add(url);
            return url.contains("a:1") ? 404 : 200;
        };
        assertThatThrownBy(() -> new KvCacheReset(t, clock, sleeper, new HookLog())
                .run(List.of("http://a:1", "http://b:2"), ResetKvCacheConfig.defaults())).isInstanceOf(HookException.class);
        assertThat(posted).containsExactly("http://a:1/reset_prefix_cache");
    }

    @Test
    void originsAreDeduplicatedInOrder() {
        assertThat(Origins.of(List.of("http://h:8000/v1/chat/completions", "h:8000/v1/completions", "https://x/y")))
                .containsExactly("http://h:8000", "https://x");
    }
}
