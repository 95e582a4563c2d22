package io.aiperf.engine.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.config.ConfigException;
import io.aiperf.engine.config.ConfigLoader;
import io.aiperf.engine.config.PhaseConfig;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** Every duration flag takes seconds or a unit, as the YAML does ("5m"). */
class DurationFlagsTest {
    private static BenchmarkConfig parse(final String... args) {
        final ProfileCommand command = new ProfileCommand();
        new CommandLine(command).parseArgs(args);
        return ConfigLoader.load(null, command.options.overlay(), Map.of());
    }

    @Test
    void unitsOnTheDurationAndTheGraceAndTheRamp() {
        final PhaseConfig p = parse("-m", "m", "--concurrency", "4", "--benchmark-duration", "10s",
                "--benchmark-grace-period", "2m", "--concurrency-ramp-duration", "500ms").firstProfilingPhase();
        assertThat(p.durationSeconds()).isEqualTo(10.0);
        assertThat(p.gracePeriodSeconds()).isEqualTo(120.0);
        assertThat(p.concurrencyRampSeconds()).isEqualTo(0.5);
        assertThat(parse("-m", "m", "--benchmark-duration", "1h").firstProfilingPhase().durationSeconds())
                .isEqualTo(3600.0);
        assertThat(parse("-m", "m", "--benchmark-duration", "30").firstProfilingPhase().durationSeconds())
                .isEqualTo(30.0);
    }

    @Test
    void aSweepOfDurationsTakesUnitsToo() {
        assertThat(parse("-m", "m", "--benchmark-duration", "10s,1m").isSweep()).isTrue();
    }

    @Test
    void aBadDurationNamesTheFlag() {
        assertThatThrownBy(() -> parse("-m", "m", "--benchmark-duration", "10 parsecs"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("--benchmark-duration");
        assertThatThrownBy(() -> parse("-m", "m", "--warmup-duration", "soon"))
                .isInstanceOf(CommandLine.ParameterException.class).hasMessageContaining("--warmup-duration")
                .hasMessageContaining("30s, 5m or 1h");
    }
}
