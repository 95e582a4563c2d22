package io.aiperf.engine.telemetry;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Scrapes the servers' Prometheus endpoints while profiling phases run (src-docs/server-metrics.md): once when the
 * first profiling phase starts, every interval while one runs, and once when the last one has drained. Each series
 * keeps its first and last value (counter and histogram deltas) and, for gauges, its samples (statistics). Warmup
 * is never measured. Scrapes run on their own thread and HTTP client, so they never take a connection from the load;
 * a profiling phase waits only for the first one (bounded by the scrape timeout). A target that does not answer its first scrape is not asked again (most servers without
 * {@code /metrics} say 404 at once); it is recorded, and never fails the run. Thread-safe.
 */
public final class ServerMetricsCollector {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final List<Target> targets = new ArrayList<>();
    private final Map<String, String> headers;
    private final long intervalMillis;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
    private ScheduledExecutorService timer;
    private java.util.function.BiConsumer<URI, PrometheusText.Page> onScrape = (u, p) -> { };
    private int owners;
    private long windowStartNanos = -1;
    private long windowEndNanos = -1;

    /** What was learned from one endpoint. */
    static final class Target {
        final URI uri;
        final Map<String, Series> series = new LinkedHashMap<>();
        final Map<String, String> types = new LinkedHashMap<>();
        final Map<String, String> help = new LinkedHashMap<>();
        int scrapes;
        int failures;
        String lastError;

        Target(final URI uri) {
            this.uri = uri;
        }
    }

    /**
     * @param headers sent with every scrape (the run's headers and credentials: a gateway may guard /metrics too)
     */
    public ServerMetricsCollector(final List<URI> targets, final Map<String, String> headers,
                                  final double intervalSeconds) {
        targets.forEach(u -> this.targets.add(new Target(u)));
        this.headers = Map.copyOf(headers);
        this.intervalMillis = Math.max(50, (long) (intervalSeconds * 1000));
    }

    /** Also hands every page scraped to {@code listener}, on the scraping thread (the GPU telemetry samples). */
    public ServerMetricsCollector onScrape(final java.util.function.BiConsumer<URI, PrometheusText.Page> listener) {
        this.onScrape = listener;
        return this;
    }

    /** A profiling phase starts; the first one starts the scraping. */
    public synchronized void phaseStarted() {
        if (owners++ > 0) {
            return;
        }
        windowStartNanos = System.nanoTime();
        timer = Executors.newSingleThreadScheduledExecutor(r -> {
            final Thread t = new Thread(r, "server-metrics");
            t.setDaemon(true);
            return t;
        });
        // The first scrape is the window's start: the phase waits for it (at most the scrape timeout per target).
        final java.util.concurrent.Future<?> first = timer.submit(this::scrapeAll);
        try {
            first.get(TIMEOUT.toMillis() * (targets.size() + 1), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            // recorded per target; the phase goes on
        }
        timer.scheduleWithFixedDelay(this::scrapeAll, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    }

    /** A profiling phase has drained; the last one takes the final scrape and stops. */
    public void phaseDrained() {
        final ScheduledExecutorService last;
        synchronized (this) {
            if (owners == 0 || --owners > 0) {
                return;
            }
            last = timer;
            timer = null;
            windowEndNanos = System.nanoTime();
        }
        last.execute(this::scrapeAll); // after any scrape under way; then no more
        last.shutdown();
        try {
            last.awaitTermination(TIMEOUT.toMillis() * (targets.size() + 1), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        last.shutdownNow();
    }

    /** What was collected; call after the last {@link #phaseDrained()}. */
    public synchronized ServerMetrics result() {
        return new ServerMetrics(List.copyOf(targets), windowStartNanos < 0 || windowEndNanos < 0 ? 0
                : (windowEndNanos - windowStartNanos) / 1e9);
    }

    private void scrapeAll() {
        for (final Target t : targets) {
            synchronized (t) {
                if (t.scrapes > 0 || t.failures == 0) {
                    scrape(t);
                }
            }
        }
    }

    private void scrape(final Target t) {
        final HttpRequest.Builder request = HttpRequest.newBuilder(t.uri).timeout(TIMEOUT).GET();
        headers.forEach(request::header);
        try {
            final HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                t.failures++;
                t.lastError = "HTTP " + response.statusCode();
                return;
            }
            final PrometheusText.Page page = PrometheusText.parse(response.body());
            t.types.putAll(page.types());
            t.help.putAll(page.help());
            t.scrapes++;
            onScrape.accept(t.uri, page);
            for (final PrometheusText.Sample s : page.samples()) {
                final String family = page.family(s.name());
                t.series.computeIfAbsent(s.name() + s.labels(),
                        k -> new Series(family, s.name(), s.labels(), page.type(family))).add(s.value());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (java.io.IOException | IllegalArgumentException e) {
            t.failures++;
            t.lastError = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        }
    }

    /** Stops scraping whatever the phases did (a failed or cancelled cell). */
    public synchronized void shutdown() {
        if (timer != null) {
            timer.shutdownNow();
            timer = null;
        }
    }
}
