package io.aiperf.engine.ci;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.ci.BaselineSelector.Build;
import io.aiperf.engine.ci.BaselineSelector.Policy;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Jenkins-free contracts of the CI integration. */
class CiContractsTest {
    @TempDir
    Path tmp;

    private static ProfileSpec spec(final String credentialsId, final List<String> extra, final List<String> cells) {
        return new ProfileSpec(null, null, "m", List.of("http://h:1", "http://h:2"), "chat", true, "8,16", null, "100",
                null, 10, 3, true, true, credentialsId, "artifacts/run", true, "gate.yaml", "lastN:3", false, extra,
                cells, null, null);
    }

    @Test
    void planBuildsTheCommandWithoutSecrets() {
        final EngineInvocation inv = InvocationPlanner.plan(spec("openai-key", List.of("--osl", "50"),
                List.of("trial_0001/concurrency_8")), List.of("java", "-jar", "aiperf.jar"), List.of("base/a"));
        assertThat(inv.argv()).containsExactly("java", "-jar", "aiperf.jar", "profile", "--model", "m",
                "--url", "http://h:1", "--url", "http://h:2", "--endpoint-type", "chat", "--streaming=true",
                "--concurrency", "8,16", "--request-count", "100", "--warmup-request-count", "10",
                "--num-profile-runs", "3", "--reset-kv-cache=true", "--server-profiler=true",
                "--api-key-env", "AIPERF_API_KEY", "--artifact-dir",
                "artifacts/run/aiperf/cells/trial_0001~2fconcurrency_8", "--cell", "trial_0001/concurrency_8", "--gate", "gate.yaml", "--baseline", "base/a", "--osl", "50");
        assertThat(inv.argv()).doesNotContain("openai-key");
        assertThat(inv.apiKeyVariable()).isEqualTo(InvocationPlanner.API_KEY_VARIABLE);
        assertThat(inv.exportDir()).isEqualTo("artifacts/run/aiperf/cells/trial_0001~2fconcurrency_8");
        assertThat(InvocationPlanner.plan(spec(null, null, List.of()), List.of("aiperf"), List.of()).apiKeyVariable())
                .isNull();
    }

    @Test
    void compareWithRunsTheComparisonWithTheCandidateAsB() {
        final ProfileSpec spec = new ProfileSpec("ab", null, "m", List.of("http://candidate:8000"), "chat", true, "4", null,
                "50", null, null, 2, true, null, null, "artifacts/ab", true, "gate.yaml", "lastN:3", false, List.of(),
                List.of(), "http://production:8000", null);
        assertThat(InvocationPlanner.plan(spec, List.of("aiperf"), List.of("base/a")).argv()).containsExactly("aiperf",
                "compare", "--model", "m", "--a", "http://production:8000", "--b", "http://candidate:8000",
                "--endpoint-type", "chat", "--streaming=true", "--concurrency", "4", "--request-count", "50",
                "--num-profile-runs", "2", "--reset-kv-cache=true", "--artifact-dir", "artifacts/ab/ab/run", "--gate",
                "gate.yaml");
        final ProfileSpec two = new ProfileSpec(null, null, "m", List.of("http://c:1", "http://c:2"), null, null, null, null,
                null, null, null, null, null, null, null, "out", true, null, null, false, List.of(), List.of(),
                "ftp://production", null);
        assertThat(two.validate()).containsKey("compareWith");
    }

    @Test
    void invalidSpecsNameTheirFields() {
        final ProfileSpec bad = new ProfileSpec("../up", null, null, List.of(), null, null, null, null, null, null, 0, 11,
                null, null, null, "../outside", true, null, "lastN:5", false, List.of("--api-key=sk-1"), List.of(" "),
                null, null);
        assertThat(bad.validate()).containsOnlyKeys("id", "model", "urls", "artifactDir", "warmupRequestCount",
                "numProfileRuns", "extraArgs", "baseline", "cells");
        assertThatThrownBy(() -> InvocationPlanner.plan(bad, List.of("aiperf"), List.of()))
                .hasMessageContaining("artifactDir").hasMessageNotContaining("sk-1");
        for (final List<String> extra : List.of(List.of("--artifact-dir", "/tmp/x"), List.of("--cell=run_0002"),
                List.of("--osl", "2", "--gate", "other.yaml"), List.of("--baseline", "b"), List.of("--pid-file", "p"))) {
            final ProfileSpec overriding = new ProfileSpec(null, null, "m", List.of("http://h:1"), null, null, null, null,
                    null, null, null, null, null, null, null, "out", true, null, null, false, extra, List.of(), null,
                    null);
            assertThat(overriding.validate()).as(extra.toString()).containsOnlyKeys("extraArgs");
            assertThat(overriding.validate().get("extraArgs")).contains("is set by the step");
        }
        assertThat(ProfileSpec.artifactDirProblem("/abs")).contains("inside the workspace");
        assertThat(ProfileSpec.artifactDirProblem("out/run")).isNull();
    }

    @Test
    void baselineSettingsParseOrSayWhatIsAccepted() {
        assertThat(BaselineChoice.parse(null)).isEqualTo(new BaselineChoice(Policy.PREVIOUS_SUCCESSFUL, 0));
        assertThat(BaselineChoice.parse("previousNotFailed").policy()).isEqualTo(Policy.PREVIOUS_NOT_FAILED);
        assertThat(BaselineChoice.parse("42")).isEqualTo(new BaselineChoice(Policy.BUILD_NUMBER, 42));
        assertThat(BaselineChoice.parse("lastN:5")).isEqualTo(new BaselineChoice(Policy.MEAN_OF_LAST, 5));
        assertThat(BaselineChoice.problem("lastN:0")).contains("previousSuccessful, previousNotFailed");
        assertThat(BaselineChoice.problem("yesterday")).contains("'yesterday' is not a baseline");
    }

    @Test
    void formTextSplitsIntoWordsKeepingQuotedSpaces() {
        assertThat(ProfileSpec.words("--osl 50  --extra-inputs 'a b' \"c d\"\n--x")).containsExactly("--osl", "50",
                "--extra-inputs", "a b", "c d", "--x");
        assertThat(ProfileSpec.words(null)).isEmpty();
    }

    @Test
    void aggregateAndCellsCommands() {
        assertThat(InvocationPlanner.aggregate(List.of("aiperf"), List.of("in/a", "in/b"), "merged", null, "g.yaml",
                List.of("base")).argv()).containsExactly("aiperf", "aggregate", "in/a", "in/b", "--output-dir",
                "merged/aiperf/aggregate", "--gate", "g.yaml", "--baseline", "base");
        assertThatThrownBy(() -> InvocationPlanner.aggregate(List.of("aiperf"), List.of("x"), "/tmp/x", null, null,
                List.of())).hasMessageContaining("artifactDir");
        assertThatThrownBy(() -> InvocationPlanner.aggregate(List.of("aiperf"), List.of("x"), "out", "a/b", null,
                List.of())).hasMessageContaining("id=");
        assertThat(InvocationPlanner.gate(List.of("aiperf"), "g.yaml", "out/x/run", List.of("b1", "b2")))
                .containsExactly("aiperf", "gate", "--rules", "g.yaml", "--candidate", "out/x/run", "--baseline", "b1",
                        "--baseline", "b2");
        assertThat(InvocationPlanner.cells(List.of("aiperf"), "b.yaml")).containsExactly("aiperf", "config", "expand",
                "--config", "b.yaml", "--cells");
        assertThat(InvocationPlanner.parseCells("run_0001\r\nrun_0002\n\n")).containsExactly("run_0001", "run_0002");
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
        Files.writeString(ok.resolve("gate_result.json"), "{\"verdict\":\"inconclusive\",\"rules\":[{\"status\":"
                + "\"inconclusive\",\"message\":\"inconclusive: candidate run invalid (error_share)\"}]}");
        final Classification inconclusive = OutcomeClassifier.classify(ExitCode.GATE_INCONCLUSIVE, ok, false);
        assertThat(inconclusive.verdict()).isEqualTo(Verdict.UNSTABLE);
        assertThat(inconclusive.reasons()).singleElement().asString().startsWith("gate inconclusive: ")
                .contains("error_share");
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
    void archivePathsKeepCallsApart() {
        assertThat(spec(null, null, List.of()).folders().prefix()).isEqualTo("aiperf/aiperf/run/");
        assertThat(spec(null, null, List.of("trial_0001/concurrency_8", "x y")).folders().prefix())
                .isEqualTo("aiperf/aiperf/cells/trial_0001~2fconcurrency_8+x~20y/");
        assertThat(ArchivePlanner.artifacts("out/run/", List.of("a.json", "d/b.json"), "aiperf/run/"))
                .containsExactly(Map.entry("aiperf/run/a.json", "out/run/a.json"),
                        Map.entry("aiperf/run/d/b.json", "out/run/d/b.json"));
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
