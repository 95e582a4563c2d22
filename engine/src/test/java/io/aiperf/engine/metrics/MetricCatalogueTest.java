package io.aiperf.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.ConfigBinder;
import java.util.HashSet;
import org.junit.jupiter.api.Test;

/** The catalogue is the one definition: goodput validation and the calculator must agree with it. */
class MetricCatalogueTest {
    @Test
    void theGoodputTagsTheConfigAcceptsAreExactlyTheCataloguesWithTheSameDirection() {
        assertThat(ConfigBinder.SLO_LARGER_IS_BETTER).isEqualTo(MetricRegistry.sloDirections());
        for (final String tag : MetricRegistry.sloDirections().keySet()) {
            assertThat(MetricRegistry.byTag(tag).perRecord()).as(tag + " is computed per request").isNotNull();
        }
    }

    @Test
    void tagsAreUniqueAndEveryPerRequestMetricIsADistribution() {
        assertThat(new HashSet<>(MetricRegistry.tags())).hasSameSizeAs(MetricRegistry.ALL);
        assertThat(MetricRegistry.PER_RECORD).allMatch(MetricSpec::distribution);
    }
}
