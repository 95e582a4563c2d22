package io.aiperf.engine.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.ConfigLoader;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** Building prompts with a tokenizer stuck in one call (as native regex backtracking is) never hangs the run. */
class DatasetWatchTest {
    /** Enters {@code count} and never returns until the test ends: nothing can interrupt native code either. */
    private static final class StuckTokenizer implements Tokenizer {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);

        @Override
        public int count(final String text) {
            entered.countDown();
            while (true) {
                try {
                    release.await();
                    return 1;
                } catch (InterruptedException e) {
                    // like native code: an interrupt does not stop it
                }
            }
        }

        @Override
        public String name() {
            return "stuck";
        }

        @Override
        public String source() {
            return "file";
        }

        @Override
        public int vocabularySize() {
            return 10;
        }
    }

    private static BenchmarkConfig config() {
        return ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  endpoint: {url: "localhost:9000"}
                  dataset: {isl: 64, entries: 3}
                """, new CliOverlay());
    }

    @Test
    void theFirstCancelStopsTheWaitAtOnce() throws Exception {
        final StuckTokenizer stuck = new StuckTokenizer();
        final AtomicBoolean cancelled = new AtomicBoolean();
        final Thread canceller = new Thread(() -> {
            try {
                stuck.entered.await();
                cancelled.set(true); // what the first SIGTERM does
            } catch (InterruptedException ignored) {
                // the test ends
            }
        });
        canceller.start();
        try {
            final BenchmarkConfig c = config();
            assertThatThrownBy(() -> Datasets.load(c.dataset(), 1L, stuck, null, false, cancelled::get, Long.MAX_VALUE))
                    .isInstanceOf(CancellationException.class);
        } finally {
            stuck.release.countDown();
            canceller.join();
        }
    }

    @Test
    void aTokenizerCallOverItsBudgetEndsWithAClearError() throws Exception {
        final StuckTokenizer stuck = new StuckTokenizer();
        try {
            final BenchmarkConfig c = config();
            assertThatThrownBy(() -> Datasets.load(c.dataset(), 1L, stuck, null, false, () -> false, 100_000_000L))
                    .isInstanceOf(ConfigException.class)
                    .hasMessageContaining("tokenizer stuck spent more than").hasMessageContaining("--tokenizer builtin");
            assertThat(stuck.entered.getCount()).isZero();
        } finally {
            stuck.release.countDown();
        }
    }
}
