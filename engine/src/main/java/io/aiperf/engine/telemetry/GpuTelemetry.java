package io.aiperf.engine.telemetry;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * GPU telemetry from DCGM exporters (src-docs/server-metrics.md): their Prometheus pages, scraped like the server's
 * metrics during profiling, with every {@code DCGM_FI_*} sample also written as it arrives to
 * {@code gpu_telemetry_export.jsonl}, one line per endpoint and scrape:
 * {@code {"timestamp_ns", "url", "samples": [{"metric", "gpu", "labels", "value"}]}}. Not thread-safe: the collector
 * calls it from its one scraping thread.
 */
public final class GpuTelemetry {
    /** DCGM exporter's default ports, as upstream AIPerf looks for them. */
    public static final List<String> DEFAULT_URLS = List.of("http://localhost:9400/metrics",
            "http://localhost:9401/metrics");
    private static final ObjectMapper JSON = new ObjectMapper();

    private final JsonGenerator out;
    private final OutputStream stream;
    private long lines;

    public GpuTelemetry(final OutputStream stream) throws IOException {
        this.stream = stream;
        this.out = JSON.getFactory().createGenerator(stream);
        out.setRootValueSeparator(null);
        out.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, false);
    }

    /** Writes the DCGM samples of one scraped page. */
    public void accept(final URI url, final PrometheusText.Page page) {
        try {
            boolean any = false;
            for (final PrometheusText.Sample s : page.samples()) {
                if (!s.name().startsWith("DCGM_FI_")) {
                    continue;
                }
                if (!any) {
                    out.writeStartObject();
                    out.writeNumberField("timestamp_ns", System.currentTimeMillis() * 1_000_000L);
                    out.writeStringField("url", url.toString());
                    out.writeArrayFieldStart("samples");
                    any = true;
                }
                out.writeStartObject();
                out.writeStringField("metric", s.name());
                out.writeStringField("gpu", s.labels().getOrDefault("gpu", ""));
                out.writeObjectFieldStart("labels");
                for (final Map.Entry<String, String> l : s.labels().entrySet()) {
                    out.writeStringField(l.getKey(), l.getValue());
                }
                out.writeEndObject();
                if (Double.isFinite(s.value())) {
                    out.writeNumberField("value", s.value());
                }
                out.writeEndObject();
            }
            if (any) {
                out.writeEndArray();
                out.writeEndObject();
                out.flush();
                stream.write('\n');
                lines++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Lines written so far. */
    public long lines() {
        return lines;
    }

    public void close() throws IOException {
        out.close();
    }
}
