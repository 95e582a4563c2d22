package io.aiperf.engine.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.config.CliOverlay;
import io.aiperf.engine.config.ConfigException;
import java.io.IOException;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/** Upstream AIPerf's {@code --request-rate-series}: the profiling phase's rate from a JSON file of points. */
@Topic(HelpTopic.LOAD)
public final class RateSeriesOption {
    @Option(names = "--request-rate-series", paramLabel = "JSON_FILE", description = "Piecewise-linear request "
            + "rate for the profiling phase: {\"points\": [{\"time_s\": 0, \"qps\": 1}, {\"time_s\": 60, \"qps\": 8}]} "
            + "(linear between points, the last rate held after). Instead of --request-rate; --request-rate-mode "
            + "draws the arrivals (default poisson).")
    Path requestRateSeries;

    void apply(final CliOverlay o) {
        if (requestRateSeries == null) {
            return;
        }
        try {
            o.phase("profiling", "rate_series", new ObjectMapper().readTree(requestRateSeries.toFile()),
                    "--request-rate-series");
        } catch (IOException e) {
            throw new ConfigException("--request-rate-series", "cannot read " + requestRateSeries + " as JSON: "
                    + e.getMessage().lines().findFirst().orElse(""));
        }
    }
}
