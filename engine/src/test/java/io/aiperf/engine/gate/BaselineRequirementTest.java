package io.aiperf.engine.gate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.config.ConfigException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A required baseline: the rules-file switch, and what a missing one does to relative and absolute rules. */
class BaselineRequirementTest {
    @TempDir
    Path tmp;

    @Test
    void aMissingRequiredBaselineFailsTheRelativeRulesOnlyAndSaysWhereTheGateLooked() throws Exception {
        final Path rules = tmp.resolve("rules.yaml");
        Files.writeString(rules, "require_baseline: true\nrules:\n"
                + "  - {metric: request_latency, stat: avg, max_increase_pct: 10}\n"
                + "  - {metric: request_latency, stat: avg, max: 1000}\n");
        final Path cand = Files.createDirectories(tmp.resolve("cand"));
        Files.writeString(cand.resolve("profile_export_aiperf.json"),
                "{\"request_count\": {\"unit\": \"requests\", \"avg\": 50}, \"request_latency\": {\"unit\": \"ms\", \"avg\": 30}}");
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        final GateResult r = GateRunner.run(rules, List.of(tmp.resolve("nowhere")), cand, cand,
                new PrintStream(out, true, StandardCharsets.UTF_8));
        assertThat(r.exitCode()).isEqualTo(1);
        assertThat(r.results().get(0).status()).isEqualTo(Status.FAILED);
        assertThat(r.results().get(0).message()).contains(tmp.resolve("nowhere").toAbsolutePath() + " (does not exist)");
        assertThat(r.results().get(1).status()).isEqualTo(Status.PASSED);
        assertThat(out.toString(StandardCharsets.UTF_8)).contains("a baseline is required");
        assertThat(BaselineRequirement.looked(List.of())).isEqualTo("no --baseline was given");
    }

    @Test
    void theSwitchIsABoolean() throws Exception {
        final Path rules = tmp.resolve("bad.yaml");
        Files.writeString(rules, "require_baseline: yes please\nrules:\n  - {metric: request_latency, stat: avg, max: 1}\n");
        assertThatThrownBy(() -> GateRulesLoader.read(rules)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("require_baseline").hasMessageContaining("true or false");
        Files.writeString(rules, "rules:\n  - {metric: request_latency, stat: avg, max: 1}\n");
        assertThat(GateRulesLoader.read(rules).requireBaseline()).isFalse();
    }
}
