package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --wait-for-model-*}: the run waits until the server answers, then loads it; a server never ready is exit 1. */
class WaitForModelEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void inferenceModeWaitsOutTheServersFirstFailures() throws Exception {
        // the first three inference calls answer 503, as a server still loading its weights does
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withFaults("/v1/chat/completions=status:503:3"))) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "4",
                    "--wait-for-model-timeout", "60", "--wait-for-model-interval", "0.05", "--tokenizer", "builtin",
                    "--artifact-dir", tmp.resolve("inference").toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.err()).contains("server ready after").contains("4 attempts, inference mode");
            // three refused checks, the one that passed, then the run's four requests, none of them failed
            assertThat(mock.controlState().calls("/v1/chat/completions")).isEqualTo(8);
            assertThat(Runs.json(tmp.resolve("inference/profile_export_aiperf.json")).path("error_request_count")
                    .path("avg").asInt(0)).isZero();
        }
    }

    @Test
    void modelsModeNeedsTheModelListed() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "not-served-here", "-u", mock.url(), "--request-count",
                    "2", "--wait-for-model-timeout", "2", "--wait-for-model-interval", "0.5",
                    "--wait-for-model-mode", "models", "--tokenizer", "builtin", "--artifact-dir",
                    tmp.resolve("models").toString());
            assertThat(r.exitCode()).isEqualTo(1);
            assertThat(r.err()).contains("the server was not ready within --wait-for-model-timeout 2.0 s")
                    .contains(", models mode; last: the model list has no not-served-here");
            // a try every 0.5 s and the last at the deadline: 5 at least, however late this machine's timers are not
            final java.util.regex.Matcher tries = java.util.regex.Pattern.compile("\\((\\d+) attempts").matcher(r.err());
            assertThat(tries.find()).isTrue();
            assertThat(Integer.parseInt(tries.group(1))).isBetween(2, 5);
            assertThat(mock.controlState().calls("/v1/chat/completions")).isZero(); // no load was sent
        }
    }

    @Test
    void badWaitSettingsAreUsageErrors() {
        final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--wait-for-model-mode",
                "sometimes");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("--wait-for-model-mode").contains("expected inference, models or both");
    }

    @Test
    void aServerThatJudgesTheProbeIsUpAndBothModesNeedTheModelAndAnAnswer() throws Exception {
        // a 400 is the server judging the one-token request: it is up (upstream counts any answer below 500)
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withFaults("/v1/chat/completions=status:400:1"))) {
            final Runs.Result r = Runs.aiperf("profile", "-m", "mock-model", "-u", mock.url(), "--request-count", "2",
                    "--wait-for-model-timeout", "30", "--wait-for-model-interval", "0.05", "--wait-for-model-mode",
                    "both", "--tokenizer", "builtin", "--artifact-dir", tmp.resolve("both").toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            assertThat(r.err()).contains("1 attempt, both mode");
            assertThat(mock.controlState().calls("/v1/models")).isPositive();
            assertThat(mock.controlState().calls("/v1/chat/completions")).isEqualTo(3); // the probe and the two
        }
    }
}
