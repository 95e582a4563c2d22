package io.aiperf.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Random;
import org.junit.jupiter.api.Test;

class SequenceDistributionTest {
    @Test
    void bothFormsParseToTheSamePairs() {
        final SequenceDistribution semicolon = SequenceDistribution.parse("256,128:40;1024|50,512:60");
        final SequenceDistribution bracket = SequenceDistribution.parse("[(256,128):40, (1024|50,512):60]");
        assertThat(bracket).isEqualTo(semicolon);
        assertThat(semicolon.pairs()).hasSize(2);
        assertThat(semicolon.pairs().get(1).islStddev()).isEqualTo(50.0);
        assertThat(semicolon.toString()).isEqualTo("256,128:40;1024|50,512:60");
    }

    @Test
    void drawsFollowTheProbabilities() {
        final SequenceDistribution d = SequenceDistribution.parse("100,10:25;200,20:75");
        final Random random = new Random(1);
        int small = 0;
        final int n = 20_000;
        for (int i = 0; i < n; i++) {
            final int[] pair = d.draw(random);
            assertThat(pair[0] == 100 && pair[1] == 10 || pair[0] == 200 && pair[1] == 20).isTrue();
            small += pair[0] == 100 ? 1 : 0;
        }
        // 25% of 20,000 draws: the binomial standard deviation is about 61, so 5 of them is a wide margin.
        assertThat(small).isBetween(5000 - 310, 5000 + 310);
    }

    @Test
    void badTextNamesTheOptionAndTheReason() {
        assertThatThrownBy(() -> SequenceDistribution.parse("256,128:40;512,256:50"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("--seq-dist").hasMessageContaining("90");
        assertThatThrownBy(() -> SequenceDistribution.parse("256:100")).hasMessageContaining("'256:100'");
        assertThatThrownBy(() -> SequenceDistribution.parse("[(256,128):100")).hasMessageContaining("']'");
        assertThatThrownBy(() -> SequenceDistribution.parse("0,128:100")).hasMessageContaining("1 or more");
    }
}
