package io.aiperf.engine.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.client.ProbeClient;
import io.aiperf.engine.config.NetworkConfig;
import io.aiperf.engine.net.RecordingServer;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The scraper against scripted loopback servers: the user's headers as given, and an endless answer. */
class ServerMetricsCollectorTest {
    /** Metrics once, or an endless chunked answer (bounded anyway: 64 MiB) until the client hangs up. */
    private static RecordingServer metrics(final boolean endless) throws IOException {
        return new RecordingServer(out -> {
            if (!endless) {
                final byte[] body = "# TYPE up gauge\nup 1\n".getBytes(StandardCharsets.US_ASCII);
                out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length
                        + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
                out.write(body);
                return;
            }
            out.write("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            final byte[] line = "some_series{label=\"0123456789\"} 1\n".repeat(2000).getBytes(StandardCharsets.US_ASCII);
            final byte[] chunk = (Integer.toHexString(line.length) + "\r\n").getBytes(StandardCharsets.US_ASCII);
            for (long sent = 0; sent < 64L << 20; sent += line.length) {
                out.write(chunk);
                out.write(line);
                out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
            }
        });
    }

    private static URI uri(final RecordingServer server) {
        return URI.create(server.origin() + "/metrics");
    }


    /** A collector with a 1 MiB budget: a host at load 20 streams that well within the scrape's 2 s. */
    private static ServerMetricsCollector collector(final URI target, final Map<String, String> headers,
                                                    final List<String> warnings) {
        return new ServerMetricsCollector(List.of(target), headers, 0.05, new ProbeClient(NetworkConfig.defaults()),
                BUDGET, ServerMetricsCollector.MAX_SERIES).onWarning(warnings::add);
    }

    private static final int BUDGET = 1 << 20;

    @Test
    void scrapesCarryTheUsersHeadersAsGiven() throws Exception {
        try (RecordingServer server = metrics(false)) {
            final List<String> warnings = new CopyOnWriteArrayList<>();
            final ServerMetricsCollector c = collector(uri(server), new java.util.LinkedHashMap<>(Map.of(
                    "Host", "model-a.example.com", "X-Tenant", "Team A")), warnings);
            c.phaseStarted();
            c.phaseDrained();
            assertThat(c.result().unanswered()).isEmpty();
            assertThat(server.heads).isNotEmpty();
            assertThat(server.heads.get(0)).startsWith("GET /metrics HTTP/1.1\r\n")
                    .contains("\r\nHost: model-a.example.com\r\n").contains("\r\nX-Tenant: Team A\r\n")
                    .doesNotContain("Upgrade");
            assertThat(warnings).isEmpty();
        }
    }

    @Test
    void anEndlessAnswerIsDroppedWithOneWarningAndNotAskedAgain() throws Exception {
        try (RecordingServer server = metrics(true)) {
            final List<String> warnings = new CopyOnWriteArrayList<>();
            final ServerMetricsCollector c = collector(uri(server), Map.of(), warnings);
            c.phaseStarted();
            c.phaseDrained();
            assertThat(warnings).hasSize(1);
            assertThat(warnings.get(0)).contains("more than " + BUDGET + " bytes")
                    .contains("dropped");
            assertThat(server.heads).hasSize(1);
            assertThat(c.result().unanswered()).hasSize(1);
        }
    }

    @Test
    void aServerThatMakesNewSeriesAtEveryScrapeIsCappedWithOneWarning() throws Exception {
        final java.util.concurrent.atomic.AtomicInteger scrape = new java.util.concurrent.atomic.AtomicInteger();
        try (RecordingServer server = new RecordingServer(out -> {
            final int n = scrape.getAndIncrement();
            final StringBuilder page = new StringBuilder("# TYPE per_request counter\n");
            for (int i = 0; i < 100; i++) { // a label per request: 100 series no scrape saw before
                page.append("per_request{id=\"").append(n).append('-').append(i).append("\"} 1\n");
            }
            final byte[] body = page.toString().getBytes(StandardCharsets.US_ASCII);
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
        })) {
            final List<String> warnings = new CopyOnWriteArrayList<>();
            final ServerMetricsCollector c = new ServerMetricsCollector(List.of(uri(server)), Map.of(), 0.05,
                    new ProbeClient(NetworkConfig.defaults()), BUDGET, 150).onWarning(warnings::add);
            c.phaseStarted();
            c.phaseDrained();
            assertThat(scrape.get()).as("scraped at the start and the end").isGreaterThanOrEqualTo(2);
            final ServerMetricsCollector.Target target = c.result().targets().get(0);
            assertThat(target.series).hasSize(150);
            assertThat(warnings).hasSize(1);
            assertThat(warnings.get(0)).contains("more than 150 series");
        }
    }
    @Test
    void overlongLinesAndANewFamilyAtEveryScrapeAreBoundedWithOneWarningEach() throws Exception {
        final java.util.concurrent.atomic.AtomicInteger scrape = new java.util.concurrent.atomic.AtomicInteger();
        try (RecordingServer server = new RecordingServer(out -> {
            final int n = scrape.getAndIncrement();
            final StringBuilder page = new StringBuilder("# HELP up " + "h".repeat(10_000) + "\n# TYPE up gauge\n")
                    .append("up{config=\"").append("x".repeat(10_000)).append("\"} 1\nup 1\n");
            for (int i = 0; i < 100; i++) { // families no scrape declared before, each with its help
                page.append("# HELP fam_").append(n).append('_').append(i).append(" new\n# TYPE fam_").append(n)
                        .append('_').append(i).append(" gauge\n");
            }
            final byte[] body = page.toString().getBytes(StandardCharsets.US_ASCII);
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
        })) {
            final List<String> warnings = new CopyOnWriteArrayList<>();
            final ServerMetricsCollector c = new ServerMetricsCollector(List.of(uri(server)), Map.of(), 0.05,
                    new ProbeClient(NetworkConfig.defaults()), BUDGET, 150).onWarning(warnings::add);
            c.phaseStarted();
            c.phaseDrained();
            assertThat(scrape.get()).as("scraped at the start and the end").isGreaterThanOrEqualTo(2);
            final ServerMetricsCollector.Target target = c.result().targets().get(0);
            assertThat(target.series.keySet()).containsExactly("up{}"); // the 10,000-character sample is skipped
            assertThat(target.types).hasSizeLessThanOrEqualTo(150);
            assertThat(target.help).hasSizeLessThanOrEqualTo(150).doesNotContainKey("up");
            assertThat(warnings).hasSize(2);
            assertThat(warnings).anyMatch(w -> w.contains("lines longer than 4096 characters; they are skipped"))
                    .anyMatch(w -> w.contains("more than 150 series"));
        }
    }
}
