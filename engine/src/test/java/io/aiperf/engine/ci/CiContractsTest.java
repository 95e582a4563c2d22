package io.aiperf.engine.ci;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.ci.BaselineSelector.Build;
import io.aiperf.engine.ci.BaselineSelector.Policy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Jenkins-free contracts of the CI integration. */
class CiContractsTest {
    @TempDir
    Path tmp;

    private static ProfileSpec spec(final String apiKeyVariable, final List<String> extra) {
        return new ProfileSpec(null, "m", List.of("http://h:1", "http://h:2"), "chat", true, "8,16", null, "100",
                null, 10, 3, true, true, apiKeyVariable, "artifacts/run", "gate.yaml", List.of("base/a"), extra);
    }

    @Test
    void planBuildsTheCommandWithoutSecrets() {
        final EngineInvocation inv = InvocationPlanner.plan(spec("OPENAI_KEY", List.of("--osl", "50")),
                List.of("java", "-jar", "aiperf.jar"));
        assertThat(inv.argv()).containsExactly("java", "-jar", "aiperf.jar", "profile", "--model", "m",
                "--url", "http://h:1", "--url", "http://h:2", "--endpoint-type", "chat", "--streaming=true",
                "--concurrency", "8,16", "--request-count", "100", "--warmup-request-count", "10",
                "--num-profile-runs", "3", "--reset-kv-cache=true", "--server-profiler=true",
                "--api-key-env", "OPENAI_KEY", "--artifact-dir", "artifacts/run", "--gate", "gate.yaml",
                "--baseline", "base/a", "--osl", "50");
        assertThat(inv.exportDir()).isEqualTo("artifacts/run");
    }

    @Test
    void invalidSpecsNameTheirFields() {
        final ProfileSpec bad = new ProfileSpec(null, null, List.of(), null, null, null, null, null, null, 0, 11,
                null, null, "not a var", "", null, List.of("x"), List.of("--api-key=sk-1"));
        assertThat(bad.validate()).containsOnlyKeys("model", "urls", "artifactDir", "apiKeyVariable",
                "warmupRequestCount", "numProfileRuns", "extraArgs", "baselines");
        assertThatThrownBy(() -> InvocationPlanner.plan(bad, List.of("aiperf"))).hasMessageContaining("artifactDir")
                .hasMessageNotContaining("sk-1");
    }

    @Test
    void exitCodesAndOutcomeFilesBecomeVerdicts() throws Exception {
        final Path ok = tmp.resolve("ok");
        Files.createDirectories(ok);
        Files.writeString(ok.resolve("cell_outcome.json"), "{\"status\":\"completed\",\"warnings\":"
                + "[\"server_profiler stop failed for 1 origin(s): x\"],\"error\":null}");
        final Classification warn = OutcomeClassifier.classify(0, ok, false);
        assertThat(warn.verdict()).isEqualTo(Verdict.SUCCESS);
        assertThat(warn.warnings()).singleElement().asString().startsWith("server_profiler stop failed");
        assertThat(OutcomeClassifier.classify(0, ok, true).verdict()).isEqualTo(Verdict.UNSTABLE);

        final Path failed = tmp.resolve("failed/profile_runs/run_0002");
        Files.createDirectories(failed);
        Files.writeString(failed.resolve("cell_outcome.json"), "{\"status\":\"failed\",\"warnings\":[],"
                + "\"error\":\"reset_kv_cache failed: control_plane POST http://h:1/reset_prefix_cache failed with status 404\"}");
        final Classification fail = OutcomeClassifier.classify(1, tmp.resolve("failed"), false);
        assertThat(fail.verdict()).isEqualTo(Verdict.FAILURE);
        assertThat(fail.reasons()).singleElement().asString().contains("status 404");

        assertThat(OutcomeClassifier.classify(3, ok, false).verdict()).isEqualTo(Verdict.UNSTABLE);
        assertThat(OutcomeClassifier.classify(130, ok, false).verdict()).isEqualTo(Verdict.ABORTED);
        assertThat(OutcomeClassifier.classify(2, tmp.resolve("none"), false).reasons().get(0)).contains("exit 2");
    }

    @Test
    void archivePlanHonoursGlobsAndSkipsTempFiles() throws Exception {
        final Path dir = tmp.resolve("exports");
        Files.createDirectories(dir.resolve("profile_runs/run_0001"));
        Files.writeString(dir.resolve("profile_export_aiperf.json"), "{}");
        Files.writeString(dir.resolve("profile_export.jsonl"), "");
        Files.writeString(dir.resolve("profile_runs/run_0001/cell_outcome.json"), "{}");
        Files.writeString(dir.resolve(".profile_export_aiperf.json123.tmp"), "");
        assertThat(ArchivePlanner.plan(dir, List.of(), List.of())).containsExactly("profile_export.jsonl",
                "profile_export_aiperf.json", "profile_runs/run_0001/cell_outcome.json");
        assertThat(ArchivePlanner.plan(dir, List.of("**/*.json"), List.of("**/cell_outcome.json")))
                .containsExactly("profile_export_aiperf.json");
    }

    @Test
    void baselinesFollowThePolicy() {
        final List<Build> history = List.of(new Build(9, Verdict.FAILURE, "b9"), new Build(8, Verdict.UNSTABLE, "b8"),
                new Build(7, Verdict.SUCCESS, "b7"), new Build(6, Verdict.SUCCESS, null), new Build(5, Verdict.SUCCESS, "b5"));
        assertThat(BaselineSelector.select(history, Policy.PREVIOUS_SUCCESSFUL, 0)).containsExactly("b7");
        assertThat(BaselineSelector.select(history, Policy.PREVIOUS_NOT_FAILED, 0)).containsExactly("b8");
        assertThat(BaselineSelector.select(history, Policy.BUILD_NUMBER, 5)).containsExactly("b5");
        assertThat(BaselineSelector.select(history, Policy.MEAN_OF_LAST, 3)).containsExactly("b7", "b5");
        assertThat(BaselineSelector.select(List.of(), Policy.PREVIOUS_SUCCESSFUL, 0)).isEmpty();
    }
}
