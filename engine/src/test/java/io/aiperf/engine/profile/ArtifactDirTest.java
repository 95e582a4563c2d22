package io.aiperf.engine.profile;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigLoader;
import org.junit.jupiter.api.Test;

/** The per-run directory AIPerf names after the model, the endpoint and the stimulus when none is given. */
class ArtifactDirTest {
    private static String dirFor(final String phases) {
        return ArtifactDirs.of(ConfigLoader.fromYaml("""
                benchmark:
                  model: org/m
                  dataset: {turns: 3}
                  phases: %s
                """.formatted(phases), new CliOverlay())).toString();
    }

    @Test
    void namesTheStimulus() {
        assertThat(dirFor("{concurrency: 8, requests: 20}")).isEqualTo("artifacts/org_m-openai-chat-concurrency8");
        assertThat(dirFor("{type: poisson, rate: 2.5, requests: 20}"))
                .isEqualTo("artifacts/org_m-openai-chat-request_rate2.5");
        assertThat(dirFor("{type: user_centric, users: 4, rate: 10, requests: 20}"))
                .isEqualTo("artifacts/org_m-openai-chat-user_centric-users4-qps10");
    }
}
