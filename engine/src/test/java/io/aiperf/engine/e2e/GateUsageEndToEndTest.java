package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Gate usage errors are one clear line with exit 2, never a stack trace with exit 1. */
class GateUsageEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void aMissingRulesFileIsNamedAsTheRulesFile() {
        final Runs.Result r = Runs.aiperf("gate", "--rules", tmp.resolve("nope.yaml").toString(), "--candidate",
                tmp.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("error: gate: --rules: file not found").doesNotContain("-f/--config");
    }

    @Test
    void anOutputDirThatIsAFileIsAUsageError() throws Exception {
        final Path rules = tmp.resolve("rules.yaml");
        Files.writeString(rules, "rules:\n  - {metric: request_latency, stat: avg, max: 1}\n");
        final Path file = tmp.resolve("file");
        Files.writeString(file, "x");
        final Runs.Result r = Runs.aiperf("gate", "--rules", rules.toString(), "--candidate", tmp.toString(),
                "--output-dir", file.toString());
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--output-dir").contains("cannot write to").doesNotContain("\tat ");
    }
}
