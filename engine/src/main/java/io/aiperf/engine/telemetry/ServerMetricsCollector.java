package io.aiperf.engine.telemetry;

import io.aiperf.engine.client.ProbeClient;
import io.aiperf.engine.client.ResponseTooLargeException;
import java.net.URI;
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
 * is never measured. Scrapes run on their own thread and connections (with the run's TLS and proxy settings), so they
 * never take a connection from the load; a profiling phase waits only for the first one (bounded by the scrape
 * timeout). Each scrape has a time and a byte budget: an answer over {@link #MAX_BYTES} is dropped with one warning
 * and its target is not asked again, so an endless {@code /metrics} costs neither memory nor the measurement. A
 * target that does not answer its first scrape is not asked again either (most servers without {@code /metrics} say
 * 404 at once); it is recorded, and never fails the run. Thread-safe.
 */
public final class ServerMetricsCollector {
    private static final Duration TIMEOUT = Duration.ofSeconds(2);
    /** The largest {@code /metrics} answer read (servers with many series send a few hundred KiB). */
    public static final int MAX_BYTES = 16 * 1024 * 1024;
    /**
     * The most series kept per endpoint (vLLM and SGLang expose a few thousand). A server that makes new series at
     * every scrape (a label per request) would otherwise grow the memory and the export without bound.
     */
    public static final int MAX_SERIES = 50_000;
    /** The most characters of series names and labels kept per endpoint: many long series would fill memory too. */
    public static final long MAX_SERIES_CHARS = 16L * 1024 * 1024;

    private final List<Target> targets = new ArrayList<>();
    private final Map<String, String> headers;
    private final long intervalMillis;
    private final int maxBytes;
    private final ProbeClient http;
    private final int maxSeries;
    private java.util.function.Consumer<String> onWarning = w -> { };
    private ScheduledExecutorService timer;
    private java.util.function.BiConsumer<URI, PrometheusText.Page> onScrape = (u, p) -> { };
    private int owners;
    private long windowStartEpochNanos;
    private long windowEndEpochNanos;

    /** What was learned from one endpoint. */
    static final class Target {
        final URI uri;
        final Map<String, Series> series = new LinkedHashMap<>();
        final Map<String, String> types = new LinkedHashMap<>();
        final Map<String, String> help = new LinkedHashMap<>();
        int scrapes;
        int failures;
        String lastError;
        /** An answer was over the byte budget: never asked again. */
        boolean oversized;
        /** Series beyond the cap were seen (and dropped). */
        boolean seriesCapped;
        /** Characters of the kept series' names and labels. */
        long seriesChars;
        /** Lines over the line bound were seen (and skipped). */
        boolean linesSkipped;
        /** When it answered and how often its text changed. */
        final FetchLog fetches = new FetchLog();

        Target(final URI uri) {
            this.uri = uri;
        }

        /**
         * The URL as the exports and the console show it: any user-info replaced by the redaction mark, whatever
         * its length (a short one is not in the run's list of secrets, so no stream would mask it).
         */
        String shown() {
            final String raw = uri.getRawUserInfo();
            return raw == null ? uri.toString() : uri.toString().replaceFirst("//" + java.util.regex.Pattern.quote(raw)
                    + "@", java.util.regex.Matcher.quoteReplacement("//" + io.aiperf.engine.config.Secret.REDACTED + "@"));
        }
    }

    /**
     * @param headers sent with every scrape (the run's headers and credentials: a gateway may guard /metrics too)
     * @param http the run's probe client (its TLS and proxy settings)
     */
    public ServerMetricsCollector(final List<URI> targets, final Map<String, String> headers,
                                  final double intervalSeconds, final ProbeClient http) {
        this(targets, headers, intervalSeconds, http, MAX_BYTES, MAX_SERIES);
    }

    /**
     * @param maxBytes the byte budget of one answer (tests use a small one, so a busy host still reaches it)
     * @param maxSeries the most series kept per endpoint
     */
    ServerMetricsCollector(final List<URI> targets, final Map<String, String> headers, final double intervalSeconds,
                           final ProbeClient http, final int maxBytes, final int maxSeries) {
        this.maxBytes = maxBytes;
        this.maxSeries = maxSeries;
        this.http = http;
        targets.forEach(u -> this.targets.add(new Target(u)));
        this.headers = Map.copyOf(headers);
        this.intervalMillis = Math.max(50, (long) (intervalSeconds * 1000));
    }

    /** Also hands every page scraped to {@code listener}, on the scraping thread (the GPU telemetry samples). */
    public ServerMetricsCollector onScrape(final java.util.function.BiConsumer<URI, PrometheusText.Page> listener) {
        this.onScrape = listener;
        return this;
    }

    /** Where the warnings go (once per target whose answer was too large). */
    public ServerMetricsCollector onWarning(final java.util.function.Consumer<String> listener) {
        this.onWarning = listener;
        return this;
    }

    /** A profiling phase starts; the first one starts the scraping. */
    public synchronized void phaseStarted() {
        if (owners++ > 0) {
            return;
        }
        windowStartEpochNanos = epochNanos();
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
            windowEndEpochNanos = epochNanos();
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
        return new ServerMetrics(List.copyOf(targets), windowStartEpochNanos, windowEndEpochNanos);
    }

    /** Wall-clock nanoseconds since the epoch (the export's times are wall-clock, as upstream's). */
    private static long epochNanos() {
        final java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    private void scrapeAll() {
        for (final Target t : targets) {
            synchronized (t) {
                if (!t.oversized && (t.scrapes > 0 || t.failures == 0)) {
                    scrape(t);
                }
            }
        }
    }

    private void scrape(final Target t) {
        try {
            final long sentNanos = System.nanoTime();
            final ProbeClient.Response response = http.get(t.uri, headers, TIMEOUT.toMillis() / 1000.0, maxBytes);
            final long answeredNanos = System.nanoTime();
            if (response.status() / 100 != 2) {
                t.failures++;
                t.lastError = "HTTP " + response.status();
                return;
            }
            final PrometheusText.Page page = PrometheusText.parse(response.text());
            keep(t, t.types, page.types());
            keep(t, t.help, page.help());
            if (page.overlong() > 0 && !t.linesSkipped) {
                t.linesSkipped = true;
                onWarning.accept("server metrics: " + t.uri.getHost() + ":" + t.uri.getPort() + t.uri.getRawPath()
                        + " sent lines longer than " + PrometheusText.MAX_LINE + " characters; they are skipped");
            }
            t.scrapes++;
            t.fetches.fetched(epochNanos(), (answeredNanos - sentNanos) / 1e6, response.text());
            onScrape.accept(t.uri, page);
            for (final PrometheusText.Sample s : page.samples()) {
                final String key = s.name() + s.labels();
                Series series = t.series.get(key);
                if (series == null) {
                    if (t.series.size() >= maxSeries || t.seriesChars + key.length() > MAX_SERIES_CHARS) {
                        capped(t);
                        continue;
                    }
                    t.seriesChars += key.length();
                    final String family = page.family(s.name());
                    series = new Series(family, s.name(), s.labels(), page.type(family));
                    t.series.put(key, series);
                }
                series.add(s.value(), answeredNanos);
            }
        } catch (ResponseTooLargeException e) {
            t.failures++;
            t.oversized = true;
            t.lastError = "answer larger than " + maxBytes + " bytes";
            onWarning.accept("server metrics: " + t.uri.getHost() + ":" + t.uri.getPort() + t.uri.getRawPath()
                    + " answered with more than " + maxBytes + " bytes; that scrape is dropped and the target is not "
                    + "scraped again");
        } catch (java.io.IOException | IllegalArgumentException e) {
            t.failures++;
            t.lastError = e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
        }
    }

    /** Families' types and help texts, new ones only while there is room: a family per scrape would grow them. */
    private void keep(final Target t, final Map<String, String> into, final Map<String, String> from) {
        for (final Map.Entry<String, String> e : from.entrySet()) {
            if (into.containsKey(e.getKey()) || into.size() < maxSeries) {
                into.put(e.getKey(), e.getValue());
            } else {
                capped(t);
            }
        }
    }

    private void capped(final Target t) {
        if (!t.seriesCapped) {
            t.seriesCapped = true;
            onWarning.accept("server metrics: " + t.uri.getHost() + ":" + t.uri.getPort() + t.uri.getRawPath()
                    + " exposes more than " + maxSeries + " series (or " + MAX_SERIES_CHARS / (1024 * 1024)
                    + " MiB of their names and labels); the series after those are not recorded (a server "
                    + "that makes new series as it runs, such as a label per request, would fill memory)");
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
