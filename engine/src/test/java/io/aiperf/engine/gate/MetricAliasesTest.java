package io.aiperf.engine.gate;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.MetricAliases;
import io.aiperf.engine.metrics.MetricRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** ttft, tpot, itl and e2el name the catalogue's metrics in rules and in goodput SLOs. */
class MetricAliasesTest {
    @Test
    void aliasesResolveToCatalogueTags() {
        MetricAliases.all().values().forEach(tag -> assertThat(MetricRegistry.byTag(tag)).as(tag).isNotNull());
        assertThat(MetricAliases.resolve("TTFT")).isEqualTo("time_to_first_token");
        assertThat(MetricAliases.resolve("request_throughput")).isEqualTo("request_throughput");
    }

    @Test
    void aRuleMayNameAMetricByItsAlias() throws Exception {
        final List<GateRule> rules = GateRulesLoader.parse(new ObjectMapper().readTree("{\"rules\": ["
                + "{\"metric\": \"ttft\", \"stat\": \"p99\", \"max_increase_pct\": 10},"
                + "{\"metric\": \"e2el\", \"stat\": \"p50\", \"max_increase_pct\": 10}]}"), "rules.yaml");
        assertThat(rules).extracting(GateRule::metric).containsExactly("time_to_first_token", "request_latency");
    }

    @Test
    void goodputMayNameAMetricByItsAlias() {
        final CliOverlay overlay = new CliOverlay().set("models", List.of("m"), "-m").set("slos",
                new ObjectMapper().createObjectNode().put("ttft", 100).put("tpot", 20).put("e2el", 900), "--goodput");
        final Map<String, Double> slos = ConfigLoader.load(null, overlay, Map.of()).goodputSlos();
        assertThat(slos).containsEntry("time_to_first_token", 100.0).containsEntry("inter_token_latency", 20.0)
                .containsEntry("request_latency", 900.0);
    }
}
