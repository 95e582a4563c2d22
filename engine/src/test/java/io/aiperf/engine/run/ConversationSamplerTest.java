package io.aiperf.engine.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.DatasetConfig;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConversationSamplerTest {
    private static List<Integer> take(final ConversationSampler s, final int n) {
        final List<Integer> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(s.next());
        }
        return out;
    }

    @Test
    void sequentialWrapsAround() {
        assertThat(take(new ConversationSampler(DatasetConfig.Sampling.SEQUENTIAL, 3, 1), 7))
                .containsExactly(0, 1, 2, 0, 1, 2, 0);
    }

    @Test
    void shuffleUsesEveryConversationOnceBeforeAnyRepeats() {
        final List<Integer> draws = take(new ConversationSampler(DatasetConfig.Sampling.SHUFFLE, 10, 4), 30);
        for (int round = 0; round < 3; round++) {
            assertThat(new HashSet<>(draws.subList(round * 10, round * 10 + 10))).hasSize(10);
        }
        assertThat(draws.subList(0, 10)).isNotEqualTo(List.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9));
        assertThat(draws).isEqualTo(take(new ConversationSampler(DatasetConfig.Sampling.SHUFFLE, 10, 4), 30));
    }

    @Test
    void randomDrawsWithReplacement() {
        final List<Integer> draws = take(new ConversationSampler(DatasetConfig.Sampling.RANDOM, 10, 9), 10);
        assertThat(draws).allMatch(i -> i >= 0 && i < 10);
        assertThat(new HashSet<>(draws)).hasSizeLessThan(10); // ten draws from ten: a repeat (fixed by the seed)
    }
}
