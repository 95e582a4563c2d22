package io.aiperf.engine.validity;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The checks read from summaries, with their thresholds, including the ones the mock cannot provoke. */
class ValidityTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Check check(final String summary, final String name, final Thresholds t) throws Exception {
        final JsonNode root = JSON.readTree(summary);
        return Validity.evaluate(root, t).checks().stream().filter(c -> c.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no check " + name));
    }

    @Test
    void aPoolWaitOfAClientShortOfCpuBlamesTheCpuNotTheConnections() throws Exception {
        final String starved = """
                {"request_count": {"avg": 200}, "client_health": {"wakeup_delay_p99_ms": 17.5,
                 "transport": {"pool_wait_p99_ms": 240}}}
                """;
        final Check cpu = check(starved, Validity.POOL_WAIT, Thresholds.defaults());
        assertThat(cpu.result()).isEqualTo(Result.INVALID);
        assertThat(cpu.message()).contains("240.0 ms").contains("17.5 ms late").contains("short of CPU");
        assertThat(cpu.fix()).contains("idle cores").contains("not the cause");
        final Check fd = check(starved.replace("17.5", "0.4"), Validity.POOL_WAIT, Thresholds.defaults());
        assertThat(fd.result()).isEqualTo(Result.INVALID);
        assertThat(fd.message()).doesNotContain("CPU");
        assertThat(fd.fix()).contains("ulimit -n").contains("accept queue");
    }

    @Test
    void aClientTokenizerFarFromTheServersCountWarns() throws Exception {
        final String s = """
                {"request_count": {"avg": 200}, "token_accounting": {"compared_requests": 200,
                 "client_output_tokens": 23000, "server_output_tokens": 20000}}
                """;
        final Check c = check(s, Validity.TOKEN_MISMATCH, Thresholds.defaults());
        assertThat(c.figure()).isEqualTo(15.0);
        assertThat(c.result()).isEqualTo(Result.WARN);
        assertThat(c.fix()).contains("--tokenizer");
        assertThat(check(s, Validity.TOKEN_MISMATCH, Thresholds.with(Map.of(Validity.TOKEN_MISMATCH,
                new Thresholds.Limits(5, 10)))).result()).isEqualTo(Result.INVALID);
    }

    @Test
    void anOutputShortfallCountsOnlyWhenTheServerWasToldToIgnoreEos() throws Exception {
        final String tokens = """
                "token_accounting": {"osl_requests": 100, "requested_output_tokens": 25600, "delivered_output_tokens": 16000}
                """;
        final String withEos = "{\"request_count\": {\"avg\": 100}, \"input_config\": {\"endpoint\": {\"extra\": "
                + "{\"ignore_eos\": true}}}, " + tokens + "}";
        final Check c = check(withEos, Validity.OSL_SHORTFALL, Thresholds.defaults());
        assertThat(c.figure()).isEqualTo(37.5);
        assertThat(c.result()).isEqualTo(Result.INVALID);
        final JsonNode without = JSON.readTree("{\"request_count\": {\"avg\": 100}, " + tokens + "}");
        assertThat(Validity.evaluate(without, Thresholds.defaults()).checks())
                .noneMatch(x -> x.name().equals(Validity.OSL_SHORTFALL));
    }

    @Test
    void sharedPrefixesWithoutAResetWarnInEitherInputConfigShape() throws Exception {
        // Upstream's shape (this build's exports) and the resolved shape of earlier builds' exports.
        for (final String config : java.util.List.of(
                "{\"datasets\": [{\"name\": \"default\", \"turns\": {\"mean\": 3}}]}",
                "{\"dataset\": {\"turns\": {\"mean\": 3}}}")) {
            final String s = "{\"request_count\": {\"avg\": 100}, \"input_config\": " + config + "}";
            assertThat(check(s, Validity.WARM_CACHE, Thresholds.defaults()).result()).as(config).isNotEqualTo(Result.OK);
            final String reset = "{\"request_count\": {\"avg\": 100}, \"input_config\": "
                    + config.replaceFirst("^\\{", "{\"endpoint\": {\"reset_kv_cache\": true}, ") + "}";
            assertThat(Validity.evaluate(JSON.readTree(reset), Thresholds.defaults()).checks())
                    .noneMatch(x -> x.name().equals(Validity.WARM_CACHE));
        }
    }

    @Test
    void percentilesNeedEnoughSamples() {
        assertThat(Validity.minimumSamples(99)).isEqualTo(100);
        assertThat(Validity.minimumSamples(95)).isEqualTo(20);
        assertThat(Validity.minimumSamples(90)).isEqualTo(10);
        assertThat(Validity.minimumSamples(50)).isEqualTo(2);
    }
}
