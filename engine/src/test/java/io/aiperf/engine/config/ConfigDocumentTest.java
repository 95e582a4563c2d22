package io.aiperf.engine.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The config is a value (issue 44): binding fills its defaults into a copy of the tree it is given, and a config's
 * documents (the effective one, what the user gave) change through nothing their accessors return.
 */
class ConfigDocumentTest {
    private static final String YAML = """
            benchmark:
              models: [m]
              endpoint:
                urls: ["http://user:pass-word-1@127.0.0.1:9"]
                api_key: sk-never-printed
                headers: {Authorization: "Bearer tok-never-printed"}
              dataset: {prompts: {isl: {mean: 32}}}
              phases: [{name: profiling, concurrency: 2, requests: 8}]
            """;

    @Test
    void bindingLeavesTheTreeItIsGivenAsItWas() {
        final ObjectNode tree = canonical(YAML);
        final ObjectNode before = tree.deepCopy();
        final BenchmarkConfig config = ConfigBinder.bind(tree, Map.of(), ConfigInputs.of(Map.of()));
        assertThat(tree).isEqualTo(before);
        assertThat(config.effective().at("/benchmark/endpoint/timeout").isNumber())
                .as("the defaults are in the effective document").isTrue();
        assertThat(config.given()).isEqualTo(ConfigDocument.of(before));
    }

    @Test
    void loadingAFileReadOnceLeavesItAsItWasForEveryPoint() {
        final ObjectNode read = canonical(YAML + "sweep: {parameters: {concurrency: [1, 2], isl: [16, 64]}}\n");
        final ObjectNode before = read.deepCopy();
        final CliOverlay flags = new CliOverlay().phase("profiling", "requests", 4, "--request-count");
        final ObjectNode flagsBefore = flags.tree().deepCopy();
        final BenchmarkConfig run = ConfigLoader.bind(read, flags);
        assertThat(read).isEqualTo(before);
        assertThat(flags.tree()).isEqualTo(flagsBefore);
        assertThat(run.variations()).hasSize(4);
        assertThat(run.variations().get(3).config().effective().at("/benchmark/dataset/prompts/isl/mean").intValue())
                .isEqualTo(64);
    }

    @Test
    void aConfigsDocumentsChangeThroughNothingTheirAccessorsReturn() {
        final BenchmarkConfig config = ConfigLoader.fromYaml(YAML, new CliOverlay());
        final ConfigDocument effective = ConfigDocument.of(config.effective().copy());
        final ConfigDocument given = ConfigDocument.of(config.given().copy());

        config.effective().copy().putObject("benchmark").put("models", "changed");
        ((ObjectNode) config.effective().at("/benchmark")).remove("endpoint");
        ((ObjectNode) config.effective().at("/benchmark/phases/0")).put("concurrency", 99);
        config.given().copy().removeAll();
        ((ObjectNode) config.given().at("/benchmark/endpoint")).put("api_key", "changed");

        assertThat(config.effective()).isEqualTo(effective);
        assertThat(config.given()).isEqualTo(given);
        assertThat(config.effective().at("/benchmark/phases/0/concurrency").intValue()).isEqualTo(2);
    }

    @Test
    void aDocumentIsACopyOfTheTreeItIsMadeFrom() {
        final ObjectNode tree = canonical(YAML);
        final ConfigDocument document = ConfigDocument.of(tree);
        ((ObjectNode) tree.get("benchmark")).remove("endpoint");
        assertThat(document.at("/benchmark/endpoint/api_key").asText()).isEqualTo("sk-never-printed");
        assertThat(document).isNotEqualTo(ConfigDocument.of(tree));
        assertThat(document).isEqualTo(ConfigDocument.of(canonical(YAML)));
        assertThat(document.hashCode()).isEqualTo(ConfigDocument.of(canonical(YAML)).hashCode());
    }

    @Test
    void aDocumentPrintsNoValueOnlyItsSections() {
        final BenchmarkConfig config = ConfigLoader.fromYaml(YAML, new CliOverlay());
        for (final String printed : new String[] {config.effective().toString(), config.given().toString()}) {
            assertThat(printed).startsWith("ConfigDocument[benchmark[").contains("endpoint", "phases")
                    .doesNotContain("sk-never-printed", "tok-never-printed", "pass-word-1", "127.0.0.1");
        }
    }

    private static ObjectNode canonical(final String yaml) {
        return ConfigShapes.canonical(YamlLoader.parse(yaml, "<yaml>", Map.of()));
    }
}
