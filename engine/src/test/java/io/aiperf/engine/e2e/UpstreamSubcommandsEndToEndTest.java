package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Upstream's subcommands beyond profile: config init, analyze-trace, and the ones refused in one line. */
class UpstreamSubcommandsEndToEndTest {
    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"minimal", "goodput_slo", "warmup_profiling", "multi_turn_conversation"})
    void everyTemplateIsWrittenAndValidates(final String template) throws Exception {
        final Path file = tmp.resolve(template + ".yaml");
        final Runs.Result init = Runs.aiperf("config", "init", "--template", template, "--model", "my-org/my-model",
                "--url", "http://127.0.0.1:9/v1", "-o", file.toString());
        assertThat(init.exitCode()).as(init.err()).isZero();
        assertThat(init.out()).contains("Created " + file + " from template '" + template + "'");
        final Runs.Result validate = Runs.aiperf("config", "validate", file.toString());
        assertThat(validate.exitCode()).as(validate.err()).isZero();
        assertThat(validate.out()).contains("valid").contains("model my-org/my-model");
        final Runs.Result expand = Runs.aiperf("config", "expand", file.toString(), "--format", "json");
        assertThat(expand.exitCode()).as(expand.err()).isZero();
        assertThat(Runs.JSON.readTree(expand.out()).toString()).contains("http://127.0.0.1:9/v1");
    }

    @Test
    void theMinimalTemplateRunsAgainstTheMock() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path file = tmp.resolve("bench.yaml");
            assertThat(Runs.aiperf("config", "init", "-m", "mock-model", "-u", mock.url(), "-o", file.toString())
                    .exitCode()).isZero();
            final Path dir = tmp.resolve("run");
            final Runs.Result r = Runs.aiperf("profile", "--config", file.toString(), "--request-count", "6",
                    "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(Runs.json(dir.resolve("profile_export_aiperf.json")).path("request_count").path("avg").asInt())
                    .isEqualTo(6);
        }
    }

    @Test
    void withoutOutputTheTemplateIsPrintedAndListsFindTheTemplates() {
        final Runs.Result printed = Runs.aiperf("config", "init");
        assertThat(printed.exitCode()).isZero();
        assertThat(printed.out()).contains("# title: Minimal Configuration").contains("model: ");
        final Runs.Result list = Runs.aiperf("config", "init", "--list", "--verbose");
        assertThat(list.out()).contains("Getting Started", "minimal", "goodput_slo", "warmup_profiling",
                "multi_turn_conversation", "tags: goodput");
        final Runs.Result search = Runs.aiperf("config", "init", "--search", "SLO");
        assertThat(search.out()).contains("goodput_slo").doesNotContain("multi_turn_conversation");
        final Runs.Result category = Runs.aiperf("config", "init", "--list", "--category", "datasets");
        assertThat(category.out()).contains("multi_turn_conversation").doesNotContain("goodput_slo");
    }

    @Test
    void anUnknownTemplateOrAnExistingFileIsOneLineAndExit2() throws Exception {
        final Runs.Result unknown = Runs.aiperf("config", "init", "-t", "nope");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.err().strip()).doesNotContain("\n").contains("unknown template 'nope'").contains("minimal");
        final Path kept = Files.writeString(tmp.resolve("kept.yaml"), "mine\n");
        final Runs.Result exists = Runs.aiperf("config", "init", "-o", kept.toString());
        assertThat(exists.exitCode()).isEqualTo(2);
        assertThat(Files.readString(kept)).isEqualTo("mine\n");
    }

    @Test
    void analyzeTracePrintsTheReportAndSavesIt() throws Exception {
        final Path trace = Files.writeString(tmp.resolve("trace.jsonl"), """
                {"timestamp": 0, "input_length": 1024, "output_length": 10, "hash_ids": [1, 2]}
                {"timestamp": 10, "input_length": 1500, "output_length": 20, "hash_ids": [1, 2, 3]}
                """);
        final Path out = tmp.resolve("reports/analysis.json");
        final Runs.Result r = Runs.aiperf("analyze-trace", "--input-file", trace.toString(), "--output-file",
                out.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out()).contains("Total requests:        2", "Analysis report saved to " + out);
        final JsonNode j = Runs.json(out);
        assertThat(j.path("total_requests").asInt()).isEqualTo(2);
        // the second row finds its first two blocks cached: 2 of 3
        assertThat(j.path("hit_rate_stats").path("max").asDouble()).isEqualTo(2.0 / 3);
        // (0, 1) and (1, 2) are shared: the first row is all context, the second 2 blocks of 512
        assertThat(j.path("context_length_stats").path("min").asDouble()).isEqualTo(1024.0);
        assertThat(Runs.aiperf("analyze-trace", trace.toString(), "--block-size", "16").exitCode()).isZero();
        final Runs.Result missing = Runs.aiperf("analyze-trace", "--input-file", tmp.resolve("none.jsonl").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
        assertThat(missing.err().strip()).doesNotContain("\n").contains("file not found");
    }

    @ParameterizedTest
    @ValueSource(strings = {"validate", "analyze", "chat", "plugins", "service", "speed-bench-report", "synthesize"})
    void upstreamsOtherCommandsSayWhyInOneLine(final String command) {
        final Runs.Result r = Runs.aiperf(command, "--target", "mooncake-trace", "--input", "x.jsonl");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err().strip()).doesNotContain("\n").doesNotContain("Unmatched")
                .startsWith("error: '" + command + "' is an upstream AIPerf command this engine does not have: ");
        assertThat(r.out()).isEmpty();
    }
}
