package io.aiperf.engine.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.config.ConfigException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Capacity rules over written search results: bounds, baselines searched another way, unfinished searches. */
class CapacityRuleTest {
    @TempDir
    Path tmp;

    private static final String RULES = """
            rules:
              - {metric: capacity, max_decrease_pct: 20}
            """;

    private Path run(final String name, final String status, final Integer capacity, final int high, final int max)
            throws Exception {
        final Path dir = Files.createDirectories(tmp.resolve(name));
        Files.createDirectories(dir.resolve("search/concurrency_0001"));
        Files.writeString(dir.resolve("search/concurrency_0001/profile_export_aiperf.json"),
                "{\"request_count\": {\"unit\": \"requests\", \"avg\": 40}}");
        Files.writeString(dir.resolve("search_result.json"), "{\"search\": {\"knob\": \"concurrency\", \"min\": 1, "
                + "\"max\": " + max + ", \"slas\": [{\"metric\": \"time_to_first_token\", \"stat\": \"p95\", "
                + "\"op\": \"lt\", \"threshold\": 45}]}, \"status\": \"" + status + "\", \"capacity\": " + capacity
                + ", \"capacity_bounds\": {\"low\": " + (capacity == null ? 0 : capacity) + ", \"high\": " + high
                + "}, \"next_missed\": " + (high + 1) + "}");
        return dir;
    }

    private RuleResult gate(final Path baseline, final Path candidate, final String rules) throws Exception {
        final Path file = tmp.resolve("rules.yaml");
        Files.writeString(file, rules);
        final GateRules parsed = GateRulesLoader.read(file);
        return GateEvaluator.evaluate(parsed, baseline == null ? null : RunData.load(List.of(baseline)),
                RunData.load(List.of(candidate))).results().get(0);
    }

    @Test
    void decidedCapacitiesAreComparedAsAnyHigherIsBetterNumber() throws Exception {
        final Path sixteen = run("b", "converged", 16, 16, 16);
        assertThat(gate(sixteen, run("c", "converged", 8, 8, 16), RULES).status()).isEqualTo(Status.FAILED);
        final RuleResult same = gate(sixteen, run("d", "converged", 14, 14, 16), RULES);
        assertThat(same.status()).as(same.message()).isEqualTo(Status.PASSED);
        assertThat(same.baseline()).isEqualTo(16);
        assertThat(same.candidate()).isEqualTo(14);
    }

    @Test
    void anOpenBoundaryThatStraddlesTheLimitIsInconclusiveWithTheBounds() throws Exception {
        final Path base = run("b", "converged", 10, 10, 16);
        final RuleResult open = gate(base, run("c", "probe_budget_spent", 6, 9, 16), RULES);
        assertThat(open.status()).as(open.message()).isEqualTo(Status.INCONCLUSIVE);
        assertThat(open.message()).contains("6 to 9");
        assertThat(gate(base, run("d", "probe_budget_spent", 8, 12, 16), RULES).status())
                .as("passes at both ends").isEqualTo(Status.PASSED);
        assertThat(gate(base, run("e", "probe_budget_spent", 2, 7, 16), RULES).status())
                .as("fails at both ends").isEqualTo(Status.FAILED);
    }

    @Test
    void aBaselineSearchedAnotherWayOrNotAtAllCannotSupportARelativeLimit() throws Exception {
        final Path cand = run("c", "converged", 8, 8, 16);
        final RuleResult range = gate(run("b", "converged", 8, 8, 32), cand, RULES);
        assertThat(range.status()).isEqualTo(Status.INCONCLUSIVE);
        assertThat(range.message()).contains("concurrency 1..32").contains("concurrency 1..16");
        assertThat(gate(run("x", "cancelled", 8, 8, 16), cand, RULES).status()).isEqualTo(Status.INCONCLUSIVE);
        final Path plain = Files.createDirectories(tmp.resolve("plain/run"));
        Files.writeString(plain.resolve("profile_export_aiperf.json"), "{\"request_count\": {\"unit\": \"requests\", \"avg\": 4}}");
        final RuleResult none = gate(plain.getParent(), cand, RULES);
        assertThat(none.status()).isEqualTo(Status.INCONCLUSIVE);
        assertThat(none.message()).contains("baseline ran no capacity search");
        assertThat(gate(null, cand, RULES).status()).as("no baseline at all: inactive").isEqualTo(Status.INACTIVE);
        assertThat(gate(run("y", "converged", 8, 8, 32), cand, "rules: [{metric: capacity, min: 12}]").status())
                .as("an absolute limit needs no baseline").isEqualTo(Status.FAILED);
    }

    @Test
    void aCandidateWithoutAFinishedSearchFails() throws Exception {
        final Path base = run("b", "converged", 8, 8, 16);
        assertThat(gate(base, run("c", "cancelled", 8, 8, 16), RULES).status()).isEqualTo(Status.FAILED);
        final Path plain = Files.createDirectories(tmp.resolve("plain/run"));
        Files.writeString(plain.resolve("profile_export_aiperf.json"), "{\"request_count\": {\"unit\": \"requests\", \"avg\": 4}}");
        final RuleResult none = gate(base, plain.getParent(), RULES);
        assertThat(none.status()).isEqualTo(Status.FAILED);
        assertThat(none.message()).contains("no search_result.json");
        final RuleResult nothingMet = gate(base, run("n", "converged", null, 0, 16), "rules: [{metric: capacity, min: 1}]");
        assertThat(nothingMet.status()).as(nothingMet.message()).isEqualTo(Status.FAILED);
    }

    @Test
    void aCapacityRuleTakesNoStatCellOrDirection() throws Exception {
        final Path file = tmp.resolve("bad.yaml");
        for (final String bad : List.of("rules: [{metric: capacity, stat: p95, min: 2}]",
                "rules: [{metric: capacity, cell: '*', min: 2}]", "rules: [{metric: capacity}]")) {
            Files.writeString(file, bad);
            assertThatThrownBy(() -> GateRulesLoader.read(file)).as(bad).isInstanceOf(ConfigException.class)
                    .hasMessageContaining("capacity");
        }
    }
}
