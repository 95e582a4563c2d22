package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Upstream options that scripts use, doing what they do upstream: cancellation, export levels, logging, warmup. */
class MigrationFlagsEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void requestCancellationReallyCancelsAndTheRecordsSaySo() throws Exception {
        // Replies take over 200 ms; a cancelled request is cut 50 ms after it was sent.
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(200, 5))) {
            final Path dir = tmp.resolve("cancel");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "16",
                    "--osl", "4", "--request-count", "20", "--concurrency", "4", "--random-seed", "3",
                    "--warmup-request-count", "4",
                    "--request-cancellation-rate", "50", "--request-cancellation-delay", "0.05",
                    "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<JsonNode> lines = Runs.jsonl(dir.resolve("profile_export.jsonl"));
            assertThat(lines).hasSize(20);
            final List<JsonNode> cancelled = lines.stream()
                    .filter(l -> l.path("error").path("code").asInt() == 499).toList();
            assertThat(cancelled).isNotEmpty().hasSizeLessThan(20);
            for (final JsonNode c : cancelled) {
                assertThat(c.path("error").path("type").asText()).isEqualTo("RequestCancellationError");
                assertThat(c.path("error").path("message").asText())
                        .matches("Request was cancelled after \\d+\\.\\d{3} seconds");
                assertThat(c.path("metadata").path("was_cancelled").asBoolean()).isTrue();
                final long sentAt = c.path("metadata").path("request_start_ns").asLong();
                final long cutAt = c.path("metadata").path("cancellation_time_ns").asLong();
                // Never before the delay; the reply (over 200 ms) did not come first, or it would not be cancelled.
                assertThat(cutAt - sentAt).isGreaterThanOrEqualTo(50_000_000L);
                // upstream's record model requires request_end_ns: for a cancelled request, when the cut was seen
                assertThat(c.path("metadata").path("request_end_ns").asLong()).isGreaterThanOrEqualTo(cutAt);
            }
            assertThat(lines.stream().filter(l -> l.path("error").isNull())
                    .allMatch(l -> !l.path("metadata").path("was_cancelled").asBoolean())).isTrue();
            // The same seed cancels the same requests; cancellations on purpose do not make the run invalid.
            final JsonNode s = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(s.path("error_request_count").path("avg").asInt()).isEqualTo(cancelled.size());
            assertThat(s.path("validity").toString()).doesNotContain("error_share\",\"result\":\"invalid");
        }
    }

    @Test
    void exportLevelsDecideThePerRequestFiles() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path summary = tmp.resolve("summary");
            assertThat(Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "3", "--tokenizer",
                    "builtin", "--export-level", "summary", "--artifact-dir", summary.toString()).exitCode()).isZero();
            assertThat(summary.resolve("profile_export.jsonl")).doesNotExist();
            assertThat(summary.resolve("profile_export_aiperf.json")).exists();
            final Path raw = tmp.resolve("raw");
            assertThat(Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "3", "--tokenizer",
                    "builtin", "--profile-export-level", "raw", "--api-key", "sk-raw-secret-123",
                    "--artifact-dir", raw.toString()).exitCode()).isZero();
            final List<JsonNode> lines = Runs.jsonl(raw.resolve("profile_export_raw.jsonl"));
            assertThat(lines).hasSize(3);
            assertThat(lines.get(0).path("request").path("messages").path(0).path("role").asText()).isEqualTo("user");
            assertThat(lines.get(0).path("response").path("text").asText()).isNotEmpty();
            assertThat(lines.get(0).path("metadata").path("x_request_id").asText()).isNotEmpty();
            assertThat(Files.readString(raw.resolve("profile_export_raw.jsonl"))).doesNotContain("sk-raw-secret-123");
            // No line of either JSONL starts with a space.
            for (final String line : Files.readAllLines(raw.resolve("profile_export.jsonl"))) {
                assertThat(line).startsWith("{");
            }
        }
    }

    @Test
    void timeslicesSplitTheWindowAndAddUpToTheRun() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 2))) {
            final Path dir = tmp.resolve("slices");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "16",
                    "--osl", "8", "--concurrency", "2", "--benchmark-duration", "1", "--slice-duration", "0.25",
                    "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode slices = Runs.json(dir.resolve("profile_export_aiperf_timeslices.json"));
            assertThat(slices.path("slice_duration").asDouble()).isEqualTo(0.25);
            assertThat(slices.path("timeslices").size()).isBetween(4, 5);
            int total = 0;
            for (final JsonNode s : slices.path("timeslices")) {
                final int n = s.path("request_count").path("avg").asInt();
                total += n;
                // The window's length is the rate's denominator, as upstream computes timeslice rates.
                assertThat(s.path("request_throughput").path("avg").asDouble())
                        .isCloseTo(n / 0.25, org.assertj.core.data.Offset.offset(1e-6));
                // upstream 0.13's sweep-line metrics per window: the requests in flight during it, never above 2
                final JsonNode inFlight = s.path("effective_concurrency");
                assertThat(inFlight.path("max").asDouble()).isLessThanOrEqualTo(2);
                assertThat(inFlight.path("avg").asDouble()).isGreaterThan(0).isLessThanOrEqualTo(2);
                assertThat(s.path("active_decode_throughput").path("avg").asDouble()).isPositive();
            }
            assertThat(total).isEqualTo(Runs.json(dir.resolve("profile_export_aiperf.json")).path("request_count")
                    .path("avg").asInt());
            assertThat(Files.readString(dir.resolve("profile_export_aiperf_timeslices.csv")))
                    .startsWith("Timeslice,Metric,avg");
            final Runs.Result bad = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--export-level", "summary",
                    "--slice-duration", "1", "--artifact-dir", tmp.resolve("bad").toString());
            assertThat(bad.exitCode()).isEqualTo(2);
            assertThat(bad.err()).contains("slice_duration");
        }
    }

    @Test
    void aConcurrencyRampStartsWithOneRequestInFlight() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(40, 2))) {
            final Path dir = tmp.resolve("ramp");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "16",
                    "--osl", "4", "--concurrency", "8", "--concurrency-ramp-duration", "1", "--benchmark-duration",
                    "2", "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<Long> starts = Runs.jsonl(dir.resolve("profile_export.jsonl")).stream()
                    .map(l -> l.path("metadata").path("request_start_ns").asLong()).sorted().toList();
            final long t0 = starts.get(0);
            final long early = starts.stream().filter(t -> t - t0 < 250_000_000L).count();
            final long late = starts.stream().filter(t -> t - t0 >= 1_500_000_000L && t - t0 < 1_750_000_000L).count();
            // The first quarter second has 1 to 3 slots; after the ramp all 8 are busy.
            assertThat(early * 2).as(early + " early against " + late + " late").isLessThan(late);
        }
    }

    /** The most requests that were at once between their start and their first token. */
    private static int maxInPrefill(final List<JsonNode> lines) {
        final List<long[]> events = new java.util.ArrayList<>();
        for (final JsonNode l : lines) {
            final long start = l.path("metadata").path("request_start_ns").asLong();
            final long first = start + (long) (l.path("metrics").path("time_to_first_token").path("value").asDouble()
                    * 1e6);
            events.add(new long[] {start, 1});
            events.add(new long[] {first, -1});
        }
        // Ends before starts at the same instant: a slot freed by a first token may be taken at once.
        events.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        int now = 0;
        int max = 0;
        for (final long[] e : events) {
            now += (int) e[1];
            max = Math.max(max, now);
        }
        return max;
    }

    @Test
    void prefillConcurrencyLetsOneRequestWaitForItsFirstTokenAtATime() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(60, 20))) {
            final List<Integer> overlaps = new java.util.ArrayList<>();
            for (final String prefill : List.of("1", "")) {
                final Path dir = tmp.resolve("prefill" + prefill);
                final List<String> args = new java.util.ArrayList<>(List.of("profile", "-m", "m", "-u", mock.url(),
                        "--streaming", "--isl", "16", "--osl", "8", "--concurrency", "4", "--request-count", "12",
                        "--tokenizer", "builtin", "--artifact-dir", dir.toString()));
                if (!prefill.isEmpty()) {
                    args.addAll(List.of("--prefill-concurrency", prefill));
                }
                final Runs.Result r = Runs.aiperf(args.toArray(String[]::new));
                assertThat(r.exitCode()).as(r.err()).isZero();
                overlaps.add(maxInPrefill(Runs.jsonl(dir.resolve("profile_export.jsonl"))));
            }
            assertThat(overlaps.get(0)).isEqualTo(1);
            assertThat(overlaps.get(1)).isGreaterThan(1); // without it, the four start together
        }
        final Runs.Result plain = Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--concurrency",
                "2", "--prefill-concurrency", "1", "--artifact-dir", tmp.resolve("none").toString());
        assertThat(plain.exitCode()).isEqualTo(2);
        assertThat(plain.err()).contains("--streaming");
    }

    @Test
    void thePrefillRampStartsWithOneRequestWaitingForItsFirstToken() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(100, 5))) {
            final Path dir = tmp.resolve("prefill-ramp");
            // The cap is 1 for the ramp's first second, then 2, 3 and 4 at one, two and three seconds.
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--isl", "16",
                    "--osl", "4", "--concurrency", "4", "--prefill-concurrency", "4",
                    "--prefill-concurrency-ramp-duration", "3", "--request-count", "70", "--tokenizer", "builtin",
                    "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<JsonNode> lines = Runs.jsonl(dir.resolve("profile_export.jsonl"));
            final long t0 = lines.stream().mapToLong(l -> l.path("metadata").path("request_start_ns").asLong()).min()
                    .orElseThrow();
            final List<JsonNode> early = lines.stream()
                    .filter(l -> l.path("metadata").path("request_start_ns").asLong() - t0 < 500_000_000L).toList();
            final List<JsonNode> late = lines.stream()
                    .filter(l -> l.path("metadata").path("request_start_ns").asLong() - t0 > 3_100_000_000L).toList();
            assertThat(early).isNotEmpty();
            assertThat(maxInPrefill(early)).isEqualTo(1);
            assertThat(late).isNotEmpty();
            assertThat(maxInPrefill(late)).isGreaterThan(1);
        }
    }

    @Test
    void logLevelsGoToTheConsoleAndEveryCellHasItsLogFile() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path quiet = tmp.resolve("quiet");
            final Runs.Result plain = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "2",
                    "--tokenizer", "builtin", "--artifact-dir", quiet.toString());
            assertThat(plain.err()).doesNotContain("debug:");
            assertThat(Files.readString(quiet.resolve("logs/aiperf.log"))).contains(" DEBUG ").contains("cell completed");
            final Runs.Result verbose = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--request-count", "2",
                    "--tokenizer", "builtin", "-v", "--artifact-dir", tmp.resolve("verbose").toString());
            assertThat(verbose.err()).contains("debug: cell default");
            final Runs.Result bad = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--log-level", "chatty",
                    "--artifact-dir", tmp.resolve("bad").toString());
            assertThat(bad.exitCode()).isEqualTo(2);
            assertThat(bad.err()).contains("--log-level");
        }
    }

    @Test
    void warmupOverridesShapeOnlyTheWarmup() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("warm");
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--concurrency", "4",
                    "--request-count", "8", "--warmup-request-count", "6", "--warmup-concurrency", "2",
                    "--warmup-grace-period", "10", "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final JsonNode phases = Runs.json(dir.resolve("profile_export_aiperf.json")).path("input_config")
                    .path("phases");
            assertThat(phases.toString()).contains("\"name\":\"warmup\"");
            for (final JsonNode p : phases) {
                assertThat(p.path("concurrency").asInt()).isEqualTo(p.path("name").asText().equals("warmup") ? 2 : 4);
            }
            assertThat(mock.controlState().inferenceRequests()).isEqualTo(14);
            final Runs.Result orphan = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--warmup-grace-period",
                    "5", "--artifact-dir", tmp.resolve("orphan").toString());
            assertThat(orphan.exitCode()).isEqualTo(2);
            assertThat(orphan.err()).contains("--warmup-grace-period");
        }
    }

    @Test
    void userCentricUsersSendOneTurnGapApart() throws Exception {
        try (MockServer mock = MockServer.start(MockServerConfig.fast())) {
            final Path dir = tmp.resolve("users");
            // 4 users share 20 requests/s: each sends every 4 / 20 = 0.2 s, the users 50 ms apart.
            final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--user-centric-rate", "20",
                    "--num-users", "4", "--session-turns-mean", "3", "--request-count", "24", "--isl", "8",
                    "--osl", "2", "--tokenizer", "builtin", "--artifact-dir", dir.toString());
            assertThat(r.exitCode()).as(r.err()).isZero();
            final List<JsonNode> lines = Runs.jsonl(dir.resolve("profile_export.jsonl"));
            assertThat(lines).hasSize(24);
            final java.util.Map<String, List<Long>> starts = new java.util.TreeMap<>();
            long first = Long.MAX_VALUE;
            long last = Long.MIN_VALUE;
            for (final JsonNode l : lines) {
                final long t = l.path("metadata").path("request_start_ns").asLong();
                starts.computeIfAbsent(l.path("metadata").path("x_correlation_id").asText(),
                        k -> new java.util.ArrayList<>()).add(t);
                first = Math.min(first, t);
                last = Math.max(last, t);
            }
            final List<Long> gaps = new java.util.ArrayList<>();
            for (final List<Long> turns : starts.values()) {
                turns.sort(null);
                for (int i = 1; i < turns.size(); i++) {
                    gaps.add(turns.get(i) - turns.get(i - 1));
                }
            }
            assertThat(gaps).isNotEmpty();
            // A turn is never sent before its gap (lateness on a busy machine only lengthens it).
            assertThat(gaps).allSatisfy(g -> assertThat(g).isGreaterThanOrEqualTo(198_000_000L));
            // 24 sends at 20/s span about 1.15 s; far more would mean the users did not overlap.
            assertThat(last - first).isBetween(1_000_000_000L, 3_000_000_000L);
        }
        final Path any = tmp.resolve("x");
        assertThat(Runs.aiperf("profile", "-m", "m", "--num-users", "4", "--artifact-dir", any.toString()).err())
                .contains("--num-users can only be used with --user-centric-rate");
        assertThat(Runs.aiperf("profile", "-m", "m", "--user-centric-rate", "5", "--num-users", "4",
                "--artifact-dir", any.toString()).err()).contains("requires multi-turn conversations");
        final Runs.Result both = Runs.aiperf("profile", "-m", "m", "--user-centric-rate", "5", "--num-users", "4",
                "--request-rate", "3", "--session-turns-mean", "3", "--artifact-dir", any.toString());
        assertThat(both.exitCode()).isEqualTo(2);
        assertThat(both.err()).contains("cannot be used together with --request-rate or --arrival-pattern");
    }
}
