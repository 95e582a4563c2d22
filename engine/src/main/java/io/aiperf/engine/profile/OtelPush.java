package io.aiperf.engine.profile;

import io.aiperf.engine.client.ProbeClient;
import io.aiperf.engine.config.ArtifactsConfig;
import io.aiperf.engine.config.BenchmarkConfig;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.log.RunLog;
import io.aiperf.engine.run.CellResult;
import io.aiperf.engine.run.RunResult;
import io.aiperf.engine.run.Version;
import io.aiperf.engine.telemetry.OtlpMetrics;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * After a run with {@code --otel-url}: each cell's results POSTed to the collector as OTLP/HTTP JSON, through the
 * engine's HTTP client (its proxy and TLS settings). A collector that does not take them is a warning: the export
 * files are the run's record (src-docs/exports.md, "OpenTelemetry").
 */
final class OtelPush {
    private static final double TIMEOUT_SECONDS = 10;

    private OtelPush() {
    }

    static void after(final BenchmarkConfig config, final Path dir, final RunResult ran, final RunLog console) {
        final ArtifactsConfig.Otel otel = config.artifacts().otel();
        if (otel == null) {
            return;
        }
        final URI target = target(otel.url());
        final String summaryName = ExportNames.of(config.artifacts().prefix()).summaryJson();
        // each cell's summary as the run holds it, in the order of their directories; nothing is read back
        final List<CellResult> summaries = ran.cells().stream().filter(r -> r.summaryJson() != null)
                .sorted(Comparator.comparing(r -> Path.of(r.outcome().artifactDir()).resolve(summaryName)))
                .toList();
        final ProbeClient client = new ProbeClient(config.endpoint().network());
        final Map<String, String> headers = Map.of(); // the client sends the JSON content type
        int pushed = 0;
        for (final CellResult result : summaries) {
            final Path summary = Path.of(result.outcome().artifactDir()).resolve(summaryName);
            final Map<String, String> point = new LinkedHashMap<>();
            point.put("gen_ai.provider.name", otel.provider() != null ? otel.provider() : "openai");
            point.put("gen_ai.operation.name", config.endpoint().type().wireName());
            point.put("gen_ai.request.model", config.primaryModel());
            final String cell = dir.toAbsolutePath().normalize().relativize(summary.getParent().normalize()).toString();
            point.put("aiperf.cell", cell.isEmpty() ? "." : cell);
            try {
                // a summary without its end time is stamped when it was written
                final long written = Files.getLastModifiedTime(summary).toMillis() * 1_000_000L;
                final byte[] body = OtlpMetrics.request(result.summaryJson(), otel, Version.VALUE, point, written);
                final ProbeClient.Response r = client.post(target, headers, body, TIMEOUT_SECONDS, 1 << 16);
                if (r.status() / 100 != 2) {
                    console.warning("OTel: the collector at " + target + " answered " + r.status()
                            + " to the results of " + point.get("aiperf.cell"));
                    continue;
                }
                pushed++;
            } catch (IOException | RuntimeException e) {
                console.warning("OTel: results of " + point.get("aiperf.cell") + " not pushed to " + target + ": "
                        + e.getMessage());
            }
        }
        if (pushed > 0) {
            console.info("OTel: pushed the results of " + pushed + " cell(s) to " + target);
        }
    }

    /** Upstream's --otel-url names the metrics endpoint; a bare collector URL gets OTLP's /v1/metrics. */
    static URI target(final String url) {
        final URI u = URI.create(url);
        return u.getPath() == null || u.getPath().isEmpty() || u.getPath().equals("/") ? u.resolve("/v1/metrics") : u;
    }
}
