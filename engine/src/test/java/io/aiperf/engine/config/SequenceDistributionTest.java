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

    @Test
    void theJsonFormIsUpstreams() {
        final SequenceDistribution json = SequenceDistribution.parse("""
                {"pairs": [{"isl": 256, "osl": 128, "prob": 40},
                           {"isl": 1024, "isl_stddev": 50, "osl": 512, "prob": 60}]}""");
        assertThat(json).isEqualTo(SequenceDistribution.parse("256,128:40;1024|50,512:60"));
        // upstream takes a length's whole part
        assertThat(SequenceDistribution.parse("{\"pairs\": [{\"isl\": 256.7, \"osl\": 8, \"prob\": 100}]}").pairs()
                .get(0).isl()).isEqualTo(256.0);
        assertThatThrownBy(() -> SequenceDistribution.parse("{\"pairs\": [{\"isl\": 256, \"osl\": 8}]}"))
                .hasMessageContaining("--seq-dist").hasMessageContaining("pair 0: 'prob' is missing");
        assertThatThrownBy(() -> SequenceDistribution.parse("{\"pair\": []}")).hasMessageContaining("'pairs' list");
        assertThatThrownBy(() -> SequenceDistribution.parse("{\"pairs\": [}")).hasMessageContaining("not valid JSON");
        assertThatThrownBy(() -> SequenceDistribution.parse("{\"pairs\": []}")).hasMessageContaining("no ISL,OSL");
        assertThatThrownBy(() -> SequenceDistribution.parse(
                "{\"pairs\": [{\"isl\": 1, \"osl\": 1, \"prob\": 100, \"weight\": 2}]}"))
                .hasMessageContaining("unknown key 'weight'");
    }

    @Test
    void relativeWeightsAreRefusedAsUpstream013RefusesThem() {
        // upstream 0.13 requires percentages adding up to 100 (numpy's isclose: within about 1e-4) in every form
        assertThatThrownBy(() -> SequenceDistribution.parse("256,128:2;512,256:3"))
                .hasMessageContaining("add up to 5%, not 100%").hasMessageContaining("relative weights");
        assertThatThrownBy(() -> SequenceDistribution.parse("256,128:0.4;512,256:0.6"))
                .hasMessageContaining("add up to 1%");
        assertThat(SequenceDistribution.parse("256,128:40;512,256:59.99999").pairs()).hasSize(2);
        assertThat(SequenceDistribution.parse("256,128:100;512,256:0").pairs()).hasSize(2);
        assertThat(SequenceDistribution.parse(" 256 , 128 : 100 ; ").pairs()).hasSize(1);
        assertThat(SequenceDistribution.parse("256,128:.5;1,1:99.5").pairs()).hasSize(2);
        // lengths are whole numbers in the text forms, as upstream's grammar has them
        assertThatThrownBy(() -> SequenceDistribution.parse("256.5,128:100")).hasMessageContaining("whole-number");
        assertThatThrownBy(() -> SequenceDistribution.parse("256,128:1e2")).hasMessageContaining("'256,128:1e2'");
    }

    @Test
    void theYamlListFormIsUpstreams() {
        final com.fasterxml.jackson.databind.JsonNode entries = YamlLoader.parse("""
                d:
                  - {isl: 256, osl: 128, probability: 40}
                  - {isl: {mean: 1024, stddev: 50}, osl: 512, osl_stddev: 5, probability: 60}
                """, "t.yaml", java.util.Map.of()).get("d");
        assertThat(SequenceDistribution.fromEntries(entries, "p.sequence_distribution"))
                .isEqualTo(SequenceDistribution.parse("256,128:40;1024|50,512|5:60"));
        final com.fasterxml.jackson.databind.JsonNode off = YamlLoader.parse("""
                d: [{isl: 128, osl: 64, probability: 40}, {isl: 512, osl: 256, probability: 59.5}]
                """, "t.yaml", java.util.Map.of()).get("d");
        // upstream's schema lets 99.5 through and its run fails on it; refused here before any traffic
        assertThatThrownBy(() -> SequenceDistribution.fromEntries(off, "p.sequence_distribution"))
                .hasMessageContaining("p.sequence_distribution").hasMessageContaining("99.5%");
        final com.fasterxml.jackson.databind.JsonNode typo = YamlLoader.parse("""
                d: [{isl: 128, osl: 64, prob: 100}]
                """, "t.yaml", java.util.Map.of()).get("d");
        assertThatThrownBy(() -> SequenceDistribution.fromEntries(typo, "p.sequence_distribution"))
                .hasMessageContaining("p.sequence_distribution[0]").hasMessageContaining("'probability' is missing");
    }

    @Test
    void theConfigTakesEitherForm() {
        final BenchmarkConfig c = ConfigLoader.fromYaml("""
                benchmark:
                  model: m
                  dataset:
                    prompts:
                      sequence_distribution: [{isl: 64, osl: 8, probability: 100}]
                  phases: {requests: 2}
                """, new CliOverlay());
        assertThat(c.dataset().sequences()).isEqualTo(SequenceDistribution.parse("64,8:100"));
        final BenchmarkConfig json = ConfigLoader.fromYaml("benchmark: {model: m, phases: {requests: 2}}",
                new CliOverlay().set("dataset.prompts.sequence_distribution",
                        "{\"pairs\": [{\"isl\": 64, \"osl\": 8, \"prob\": 100}]}", "--seq-dist"));
        assertThat(json.dataset().sequences()).isEqualTo(SequenceDistribution.parse("64,8:100"));
    }
}
