package io.aiperf.engine.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {
    @Test
    void readsTypesLabelsHistogramPartsAndSpecialValues() {
        final PrometheusText.Page page = PrometheusText.parse("""
                # HELP vllm:num_requests_running Running requests.
                # TYPE vllm:num_requests_running gauge
                vllm:num_requests_running{model_name="m",engine="0"} 3
                # TYPE lat histogram
                lat_bucket{le="0.5"} 2
                lat_bucket{le="+Inf"} 4
                lat_sum 1.5e0
                lat_count 4
                odd{path="a \\"quoted\\" value, with comma"} NaN 1700000000000
                broken{le=} 1
                no_value
                """);
        assertThat(page.samples()).hasSize(6);
        final PrometheusText.Sample running = page.samples().get(0);
        assertThat(running.labels()).isEqualTo(Map.of("model_name", "m", "engine", "0"));
        assertThat(running.value()).isEqualTo(3.0);
        assertThat(page.type(page.family("lat_bucket"))).isEqualTo("histogram");
        assertThat(page.family("lat_sum")).isEqualTo("lat");
        assertThat(page.samples().get(2).labels()).containsEntry("le", "+Inf");
        assertThat(page.samples().get(3).value()).isEqualTo(1.5);
        assertThat(page.samples().get(5).value()).isNaN();
        assertThat(page.samples().get(5).labels().get("path")).isEqualTo("a \"quoted\" value, with comma");
        assertThat(page.help().get("vllm:num_requests_running")).isEqualTo("Running requests.");
    }
}
