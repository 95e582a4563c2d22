package io.aiperf.engine.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.Test;

class RateSeriesTest {
    private static RateSeries of(final String json) throws Exception {
        return RateSeries.parse(new ObjectMapper().readTree(json), "rate_series");
    }

    @Test
    void theRateIsLinearBetweenPointsAndHeldOutside() throws Exception {
        final RateSeries s = of("{\"points\":[{\"time_s\":10,\"qps\":2},{\"time_s\":20,\"qps\":12}]}");
        assertThat(s.rateAt(0)).isEqualTo(2);
        assertThat(s.rateAt(15)).isEqualTo(7);
        assertThat(s.rateAt(99)).isEqualTo(12);
        // 10 s at 2, then a trapezoid (2 + 12) / 2 x 10, then 12 per second
        assertThat(s.arrivalsBy(10)).isEqualTo(20);
        assertThat(s.arrivalsBy(20)).isEqualTo(90);
        assertThat(s.arrivalsBy(21)).isEqualTo(102);
        assertThat(s.timeOf(90)).isCloseTo(20, Offset.offset(1e-6));
        assertThat(s.timeOf(s.arrivalsBy(13.7))).isCloseTo(13.7, Offset.offset(1e-6));
        assertThat(s.peak()).isEqualTo(12);
        assertThat(s.scaled(0.5).rateAt(15)).isEqualTo(3.5);
    }

    @Test
    void badSeriesNameTheField() {
        assertThatThrownBy(() -> of("{\"points\":[]}")).isInstanceOf(ConfigException.class).hasMessageContaining("rate_series");
        assertThatThrownBy(() -> of("{\"points\":[{\"time_s\":0,\"qps\":-1},{\"time_s\":1,\"qps\":1}]}"))
                .hasMessageContaining("not negative");
        assertThatThrownBy(() -> of("{\"points\":[{\"time_s\":0,\"qps\":5},{\"time_s\":1,\"qps\":0}]}"))
                .hasMessageContaining("last point");
        assertThatThrownBy(() -> of("{\"points\":[{\"time_s\":0}]}")).hasMessageContaining("time_s and qps");
    }
}
