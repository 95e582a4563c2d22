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
        final Path searchYaml = tmp.resolve("search.yaml");
        Files.writeString(searchYaml, SEARCH_YAML);
        final Path convergenceYaml = tmp.resolve("convergence.yaml");
        Files.writeString(convergenceYaml, CONVERGENCE_YAML);
        final List<List<String>> commands = List.of(
                List.of("-m", "m", "--search-space", "concurrency:2,9", "--search-sla",
                        "time_to_first_token:p95:lt:200", "--search-planner", "grid", "--warmup-request-count", "2",
                        "--request-count", "20"),
                List.of("-f", searchYaml.toString(), "--osl", "4"),
                List.of("-m", "m"),
                List.of("-m", "m", "--concurrency", "8,16", "--num-profile-runs", "2", "--request-count", "20"),
                List.of("-m", "m", "--request-cancellation-rate", "10", "--request-cancellation-delay", "0.5"),
                List.of("-m", "m", "--goodput", "time_to_first_token:100 inter_token_latency:20"),
                List.of("-m", "m", "--request-rate", "5", "--benchmark-duration", "30", "--warmup-request-count",
                        "4", "--streaming", "--osl", "64"),
                List.of("-m", "m", "-H", "Authorization: Bearer S3cr3t", "--api-key", "sk-S3cr3t"),
                List.of("-m", "m", "--num-profile-runs", "5", "--convergence-metric", "time_to_first_token",
                        "--convergence-mode", "cv"),
                List.of("-f", convergenceYaml.toString()),
                List.of("-m", "m", "--search-space", "concurrency:2,9", "--search-sla",
                        "time_to_first_token:p95:lt:200", "--convergence-metric", "request_latency"));
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
            assertThat(YAML.readTree(first.out()).has("search")).as("%s: the search section", flags)
                    .isEqualTo(flags.stream().anyMatch(f -> f.startsWith("--search") || f.equals(searchYaml.toString())));
            assertThat(YAML.readTree(first.out()).path("multi_run").has("convergence")).as("%s: convergence", flags)
                    .isEqualTo(flags.stream().anyMatch(f -> f.startsWith("--convergence")
                            || f.equals(convergenceYaml.toString())));
        }
    }

    /** Convergence in a file, its keys camelCase as a file may spell them. */
    private static final String CONVERGENCE_YAML = """
            benchmark:
              models: [m]
            multi_run:
              num_runs: 4
              convergence: {metric: request_latency, stat: p90, minRuns: 2}
            """;

    /**
     * Convergence from the flags and from a file's {@code multi_run.convergence} both become the
     * {@code multi_run.convergence} profile reads, every default written out; one profile refuses is refused here.
     */
    @Test
    void aConvergenceFromTheFlagsOrTheFileIsItsMultiRunSection() throws Exception {
        final Runs.Result flags = Runs.aiperf("config", "expand", "-m", "m", "--num-profile-runs", "5",
                "--convergence-metric", "time_to_first_token", "--convergence-mode", "cv");
        assertThat(flags.exitCode()).as(flags.err()).isZero();
        assertThat(YAML.readTree(flags.out()).path("multi_run").path("convergence").toString()).isEqualTo(
                "{\"metric\":\"time_to_first_token\",\"stat\":\"avg\",\"threshold\":0.05,\"mode\":\"cv\","
                + "\"min_runs\":3}");
        final Path file = tmp.resolve("convergence.yaml");
        Files.writeString(file, CONVERGENCE_YAML);
        final Runs.Result fromFile = Runs.aiperf("config", "expand", file.toString(), "--convergence-threshold",
                "0.2");
        assertThat(fromFile.exitCode()).as(fromFile.err()).isZero();
        assertThat(YAML.readTree(fromFile.out()).path("multi_run").path("convergence").toString()).isEqualTo(
                "{\"metric\":\"request_latency\",\"stat\":\"p90\",\"threshold\":0.2,\"mode\":\"ci_width\","
                + "\"min_runs\":2}");
        final Runs.Result oneRun = Runs.aiperf("config", "expand", "-m", "m", "--convergence-metric",
                "time_to_first_token");
        assertThat(oneRun.exitCode()).isEqualTo(2);
        assertThat(oneRun.err()).contains("--convergence-metric", "--num-profile-runs");
        final Path single = tmp.resolve("single.yaml");
        Files.writeString(single, CONVERGENCE_YAML.replace("num_runs: 4", "num_runs: 1"));
        final Runs.Result invalid = Runs.aiperf("config", "validate", single.toString());
        assertThat(invalid.exitCode()).as(invalid.out()).isEqualTo(1);
        assertThat(invalid.err()).contains("--convergence-metric");
    }

    /** A search in a file, by upstream's dotted path, with a recipe's SLO beside its own. */
    private static final String SEARCH_YAML = """
            benchmark:
              models: [m]
              phases: {requests: 12}
            search:
              space: phases.profiling.rate:2,8
              recipe: max-throughput-ttft-sla
              ttft_sla_ms: 250
              slas: [request_latency:p99:lt:2000]
              max_iterations: 3
            """;

    /**
     * A capacity search from the flags and from a file's {@code search:} both become the {@code search:} section
     * profile reads, every default written out; the phases hold the knob's low end.
     */
    @Test
    void aSearchFromTheFlagsOrTheFileIsTheSearchSection() throws Exception {
        final Runs.Result flags = Runs.aiperf("config", "expand", "-m", "m", "--search-space", "concurrency:2,9",
                "--search-sla", "time_to_first_token:p95:lt:200", "--api-key", "sk-S3archS3cr3t");
        assertThat(flags.exitCode()).as(flags.err()).isZero();
        assertThat(flags.all()).as("a search's config keeps its secrets redacted").doesNotContain("S3archS3cr3t");
        assertThat(flags.out()).contains("# A capacity search: profile sets the concurrency of each point");
        final JsonNode tree = YAML.readTree(flags.out());
        assertThat(tree.path("search").toString()).isEqualTo("{\"space\":\"concurrency:2,9\","
                + "\"slas\":[\"time_to_first_token:p95:lt:200\"],\"percentile_pooling\":\"mean\","
                + "\"max_iterations\":8,\"planner\":\"bisection\",\"trials_max\":3,\"boundary_band_pct\":10,"
                + "\"max_client_lateness_ms\":20}");
        final JsonNode profiling = tree.path("benchmark").path("phases").get(0);
        assertThat(profiling.path("concurrency").asInt()).isEqualTo(2);
        assertThat(profiling.has("requests")).as("twice each point's concurrency, left to profile: %s", profiling)
                .isFalse();
        final Path yaml = tmp.resolve("search.yaml");
        Files.writeString(yaml, SEARCH_YAML);
        final JsonNode fromFile = YAML.readTree(Runs.aiperf("config", "expand", yaml.toString()).out());
        assertThat(fromFile.path("search").path("space").asText()).isEqualTo("request_rate:2,8");
        assertThat(fromFile.path("search").path("recipe").asText()).isEqualTo("max-throughput-ttft-sla");
        assertThat(fromFile.path("search").path("slas").toString()).isEqualTo("[\"request_latency:p99:lt:2000\"]");
        assertThat(fromFile.path("benchmark").path("phases").get(0).path("rate").asInt()).isEqualTo(2);
        assertThat(fromFile.path("benchmark").path("phases").get(0).path("requests").asInt()).isEqualTo(12);
        final Runs.Result json = Runs.aiperf("config", "expand", yaml.toString(), "--format", "json");
        assertThat(Runs.JSON.readTree(json.out()).path("search")).isEqualTo(fromFile.path("search"));
    }

    /** What profile refuses with a search, expand refuses too: it prints no config that cannot run. */
    @Test
    void aSearchProfileWouldRefuseIsAUsageError() {
        final Runs.Result knob = Runs.aiperf("config", "expand", "-m", "m", "--search-sla",
                "time_to_first_token:p95:lt:200", "--concurrency", "4");
        assertThat(knob.exitCode()).isEqualTo(2);
        assertThat(knob.out()).isEmpty();
        assertThat(knob.err()).contains("--concurrency: a capacity search sets the concurrency of each point");
        final Runs.Result trials = Runs.aiperf("config", "expand", "-m", "m", "--search-sla",
                "time_to_first_token:p95:lt:200", "--num-profile-runs", "2");
        assertThat(trials.exitCode()).isEqualTo(2);
        assertThat(trials.err()).contains("a capacity search runs one cell per point");
        final Runs.Result noSlo = Runs.aiperf("config", "expand", "-m", "m", "--search-space", "concurrency:1,4");
        assertThat(noSlo.exitCode()).isEqualTo(2);
        assertThat(noSlo.err()).contains("--search-sla");
    }

    /**
     * The expanded file of a search runs: profile with the embedded mock finds a capacity, each point with the
     * request count profile derives from its concurrency (twice it, at least 10), as from the flags.
     */
    @Test
    void theExpandedSearchRunsAndFindsACapacity() throws Exception {
        final Runs.Result expanded = Runs.aiperf("config", "expand", "-m", "m", "--streaming", "--isl", "8", "--osl",
                "2", "--tokenizer", "builtin", "--search-space", "concurrency:1,6", "--search-planner", "grid",
                "--search-max-iterations", "2", "--search-trials-max", "1", "--search-sla",
                "time_to_first_token:p50:lt:1000000");
        assertThat(expanded.exitCode()).as(expanded.err()).isZero();
        final Path file = tmp.resolve("expanded.yaml");
        Files.writeString(file, expanded.out());
        final Path dir = tmp.resolve("run");
        final Runs.Result run = Runs.aiperf("profile", "--mock", "-f", file.toString(), "--artifact-dir",
                dir.toString());
        assertThat(run.exitCode()).as(run.err()).isZero();
        final JsonNode result = Runs.json(dir.resolve("search_result.json"));
        assertThat(result.path("path").toString()).isEqualTo("[1,6]");
        assertThat(result.path("capacity").asInt()).isEqualTo(6);
        assertThat(result.path("search").path("planner").asText()).isEqualTo("grid");
        final JsonNode top = Runs.json(dir.resolve("search/concurrency_0006/trial_0001/profile_export_aiperf.json"));
        assertThat(top.path("request_count").path("avg").asInt()).as("2 x 6 requests at concurrency 6").isEqualTo(12);
    }

    /**
     * A rate ramp with a request-rate search ramps each point's rate: expand and profile agree that it is valid, and
     * a point runs its rate with the ramp (it was refused: the run's own config, without a rate, had none to ramp).
     */
    @Test
    void aRateRampRampsEachPointOfARateSearch() throws Exception {
        final String[] search = {"--request-rate-ramp-duration", "2", "--search-space", "request_rate:10,20",
            "--search-planner", "grid", "--search-max-iterations", "2", "--search-trials-max", "1", "--search-sla",
            "time_to_first_token:p50:lt:1000000"};
        final List<String> expand = new ArrayList<>(List.of("config", "expand", "-m", "m"));
        expand.addAll(List.of(search));
        final Runs.Result expanded = Runs.aiperf(expand.toArray(String[]::new));
        assertThat(expanded.exitCode()).as(expanded.err()).isZero();
        final JsonNode phase = YAML.readTree(expanded.out()).path("benchmark").path("phases").get(0);
        assertThat(phase.path("rate").asInt()).isEqualTo(10);
        assertThat(phase.path("rate_ramp_duration").asDouble()).isEqualTo(2.0);

        final Path dir = tmp.resolve("ramped");
        final List<String> profile = new ArrayList<>(List.of("profile", "--mock", "--streaming", "--isl", "8",
                "--osl", "2", "--request-count", "4", "--artifact-dir", dir.toString()));
        profile.addAll(List.of(search));
        final Runs.Result run = Runs.aiperf(profile.toArray(String[]::new));
        assertThat(run.exitCode()).as(run.err()).isZero();
        final JsonNode result = Runs.json(dir.resolve("search_result.json"));
        assertThat(result.path("path").toString()).isEqualTo("[10,20]");
        final JsonNode top = result.path("points").get(1);
        final JsonNode phases = Runs.json(dir.resolve(top.path("trial_results").get(0).path("artifact_dir").asText())
                .resolve("profile_export_aiperf.json")).path("input_config").path("phases");
        final JsonNode ran = phases.get(phases.size() - 1);
        assertThat(ran.path("rate").asDouble()).as("%s", ran).isEqualTo(20.0);
        assertThat(ran.path("rate_ramp_duration").asDouble()).as("%s", ran).isEqualTo(2.0);
    }

    /** config validate refuses the searches profile and config expand refuse, with their message. */
    @Test
    void validateRefusesASearchProfileRefuses() throws Exception {
        final Path trials = tmp.resolve("trials.yaml");
        Files.writeString(trials, """
                benchmark:
                  models: [m]
                multi_run: {num_runs: 2}
                search:
                  space: concurrency:1,4
                  slas: [time_to_first_token:p95:lt:200]
                """);
        final Runs.Result validate = Runs.aiperf("config", "validate", trials.toString());
        final Runs.Result expand = Runs.aiperf("config", "expand", trials.toString());
        assertThat(expand.exitCode()).isEqualTo(2);
        assertThat(validate.exitCode()).as("validate's exit for an invalid file").isEqualTo(1);
        assertThat(validate.out()).isEmpty();
        assertThat(validate.err()).contains("a capacity search runs one cell per point").isEqualTo(expand.err());
        // what profile runs, validate accepts: a rate ramp in the file, over a rate search's points
        final Path ramped = tmp.resolve("ramped.yaml");
        Files.writeString(ramped, """
                benchmark:
                  models: [m]
                  tokenizer: {name: builtin}
                  phases: [{name: profiling, rate_ramp_duration: 2, requests: 4}]
                search:
                  space: request_rate:10,20
                  slas: [time_to_first_token:p95:lt:200]
                """);
        final Runs.Result valid = Runs.aiperf("config", "validate", ramped.toString());
        assertThat(valid.exitCode()).as(valid.err()).isZero();
        assertThat(valid.out()).contains("valid (1 cell");
    }
}
