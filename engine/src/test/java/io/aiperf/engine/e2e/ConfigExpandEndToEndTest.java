package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code aiperf config expand} from profile's flags: a dry run that prints the effective YAML under a header, with
 * secrets redacted, and whose output validates and expands to itself again.
 */
class ConfigExpandEndToEndTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @TempDir
    Path tmp;

    @Test
    void flagsExpandToTheEffectiveYamlUnderAHeader() throws Exception {
        final Runs.Result r = Runs.aiperf("config", "expand", "-m", "m", "--concurrency", "8", "--request-count",
                "100", "--streaming");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).startsWith("# The effective config of: aiperf config expand -m m --concurrency 8 "
                + "--request-count 100 --streaming\n");
        final JsonNode tree = YAML.readTree(r.out());
        assertThat(tree.path("benchmark").path("models").get(0).asText()).isEqualTo("m");
        assertThat(tree.path("benchmark").path("endpoint").path("streaming").asBoolean()).isTrue();
        assertThat(tree.path("benchmark").path("phases").get(0).path("concurrency").asInt()).isEqualTo(8);
        assertThat(tree.path("benchmark").path("phases").get(0).path("requests").asInt()).isEqualTo(100);
    }

    /** The same redaction as {@code config expand FILE}: the config's values and the header's command line. */
    @Test
    void secretsGivenAsFlagsAreRedactedInTheHeaderAndTheYaml() throws Exception {
        final Runs.Result r = Runs.aiperf("config", "expand", "-m", "m", "-H", "Authorization: Bearer S3cr3tH3ader",
                "--api-key", "sk-flag-S3cr3t", "--header=X-Api-Key:k3y-in-header");
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.all()).doesNotContain("S3cr3tH3ader").doesNotContain("sk-flag-S3cr3t")
                .doesNotContain("k3y-in-header");
        final JsonNode endpoint = YAML.readTree(r.out()).path("benchmark").path("endpoint");
        assertThat(endpoint.path("api_key").asText()).isEqualTo("<redacted>");
        assertThat(endpoint.path("headers").path("Authorization").asText()).isEqualTo("<redacted>");
        assertThat(r.out().lines().findFirst().orElseThrow()).contains("--api-key <redacted>")
                .contains("Authorization:<redacted>");
    }

    @Test
    void theFileAndTheFlagsTogetherAsInProfile() throws Exception {
        final Path yaml = tmp.resolve("bench.yaml");
        Files.writeString(yaml, "benchmark:\n  models: [from-file]\n  endpoint:\n    urls: [http://127.0.0.1:9]\n"
                + "  phases: {concurrency: 2, requests: 5}\n");
        final Runs.Result r = Runs.aiperf("config", "expand", yaml.toString(), "--concurrency", "4");
        assertThat(r.exitCode()).as(r.err()).isZero();
        final JsonNode benchmark = YAML.readTree(r.out()).path("benchmark");
        assertThat(benchmark.path("models").get(0).asText()).isEqualTo("from-file");
        assertThat(benchmark.path("phases").get(0).path("concurrency").asInt()).isEqualTo(4);
        assertThat(benchmark.path("phases").get(0).path("requests").asInt()).isEqualTo(5);
        final Runs.Result twice = Runs.aiperf("config", "expand", yaml.toString(), "-f", yaml.toString());
        assertThat(twice.exitCode()).isEqualTo(2);
        assertThat(twice.err()).contains("Give the config file once");
    }

    /** A flag that is no config (a bad one) is a usage error before anything is printed. */
    @Test
    void aBadFlagIsAUsageError() {
        final Runs.Result r = Runs.aiperf("config", "expand", "-m", "m", "--concurrency", "eight");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err()).contains("--concurrency");
        final Runs.Result delayAlone = Runs.aiperf("config", "expand", "-m", "m", "--request-cancellation-delay", "0.5");
        assertThat(delayAlone.exitCode()).isEqualTo(2);
        assertThat(delayAlone.err()).contains("--request-cancellation-delay requires --request-cancellation-rate");
    }

    /**
     * Every expanded config validates, and expands to the same config again: the defaults it writes out are ones
     * the loader accepts (a request-cancellation delay of 0 beside a rate of 0 was refused).
     */
    @Test
    void everyExpandedConfigValidatesAndExpandsToItself() throws Exception {
        final List<List<String>> commands = List.of(
                List.of("-m", "m"),
                List.of("-m", "m", "--concurrency", "8,16", "--num-profile-runs", "2", "--request-count", "20"),
                List.of("-m", "m", "--request-cancellation-rate", "10", "--request-cancellation-delay", "0.5"),
                List.of("-m", "m", "--goodput", "time_to_first_token:100 inter_token_latency:20"),
                List.of("-m", "m", "--request-rate", "5", "--benchmark-duration", "30", "--warmup-request-count",
                        "4", "--streaming", "--osl", "64"),
                List.of("-m", "m", "-H", "Authorization: Bearer S3cr3t", "--api-key", "sk-S3cr3t"));
        for (final List<String> flags : commands) {
            final List<String> args = new ArrayList<>(List.of("config", "expand"));
            args.addAll(flags);
            final Runs.Result first = Runs.aiperf(args.toArray(String[]::new));
            assertThat(first.exitCode()).as("%s: %s", flags, first.err()).isZero();
            final Path file = tmp.resolve("expanded.yaml");
            Files.writeString(file, first.out());
            final Runs.Result valid = Runs.aiperf("config", "validate", file.toString());
            assertThat(valid.exitCode()).as("%s: %s", flags, valid.err()).isZero();
            assertThat(valid.out()).contains(": valid (");
            final Runs.Result again = Runs.aiperf("config", "expand", file.toString());
            assertThat(again.exitCode()).as("%s: %s", flags, again.err()).isZero();
            assertThat(YAML.readTree(again.out())).as("%s expanded twice", flags).isEqualTo(YAML.readTree(first.out()));
        }
    }
}
