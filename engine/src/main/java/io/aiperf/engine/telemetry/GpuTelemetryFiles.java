package io.aiperf.engine.telemetry;

import io.aiperf.engine.export.AtomicFiles;
import io.aiperf.engine.export.ExportNames;
import io.aiperf.engine.log.RunLog;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A cell's GPU telemetry (src-docs/server-metrics.md): the DCGM exporters scraped during profiling, their samples
 * streamed into {@code gpu_telemetry_export.jsonl} and their statistics written to {@code gpu_telemetry_export.json}
 * (the server metrics' shape); nothing when telemetry is off or no exporter answered. Driven by one cell's thread and
 * the collector's scraping thread.
 */
public final class GpuTelemetryFiles {
    private static final GpuTelemetryFiles OFF = new GpuTelemetryFiles(null, null, null, null, null, null, null);

    private final ServerMetricsCollector collector;
    private final GpuTelemetry samples;
    private final AtomicFiles.Pending jsonl;
    private final OutputStream stream;
    private final Path json;
    /** How the files' bytes reach the disk (the run's redactor): an exporter's URL may carry a secret. */
    private final UnaryOperator<OutputStream> wrap;
    private final RunLog log;

    private GpuTelemetryFiles(final ServerMetricsCollector collector, final GpuTelemetry samples,
                              final AtomicFiles.Pending jsonl, final OutputStream stream, final Path json,
                              final UnaryOperator<OutputStream> wrap, final RunLog log) {
        this.collector = collector;
        this.samples = samples;
        this.jsonl = jsonl;
        this.stream = stream;
        this.json = json;
        this.wrap = wrap;
        this.log = log;
    }

    /** Telemetry for these exporter URLs (none: off). */
    public static GpuTelemetryFiles open(final List<String> urls, final Path dir, final ExportNames names,
                                         final UnaryOperator<OutputStream> wrap, final RunLog log,
                                         final io.aiperf.engine.client.ProbeClient http) {
        if (urls.isEmpty()) {
            return OFF;
        }
        final AtomicFiles.Pending pending = AtomicFiles.begin(dir.resolve(names.gpuTelemetryJsonl()));
        try {
            final OutputStream stream = wrap.apply(pending.stream());
            final GpuTelemetry samples = new GpuTelemetry(stream);
            final ServerMetricsCollector collector = new ServerMetricsCollector(urls.stream().map(URI::create).toList(),
                    Map.of(), 1.0, http).onScrape(samples::accept).onWarning(log::warning);
            return new GpuTelemetryFiles(collector, samples, pending, stream, dir.resolve(names.gpuTelemetryJson()),
                    wrap, log);
        } catch (IOException e) {
            pending.abort();
            log.warning("no GPU telemetry: " + e.getMessage());
            return OFF;
        }
    }

    public void phaseStarted() {
        if (collector != null) {
            collector.phaseStarted();
        }
    }

    public void phaseDrained() {
        if (collector != null) {
            collector.phaseDrained();
        }
    }

    /** Stops scraping and writes the files, or drops them when no exporter answered. */
    public void finish() {
        if (collector == null) {
            return;
        }
        collector.shutdown();
        final ServerMetrics metrics = collector.result();
        metrics.unanswered().forEach((url, why) -> log.log(RunLog.Level.NOTICE,
                "GPU telemetry not collected from " + url + " (" + why + ")"));
        try {
            samples.close();
            stream.close();
        } catch (IOException e) {
            jsonl.abort();
            log.warning("no GPU telemetry: " + e.getMessage());
            return;
        }
        if (samples.lines() == 0) {
            jsonl.abort();
            return;
        }
        jsonl.commit();
        AtomicFiles.write(json, out -> {
            try (OutputStream redacted = wrap.apply(out)) {
                redacted.write(metrics.json(null)); // the GPU file carries no version or config echo
            }
        });
    }
}
