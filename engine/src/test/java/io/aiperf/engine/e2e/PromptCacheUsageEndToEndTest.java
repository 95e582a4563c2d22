package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upstream 0.13's prompt-cache metrics against a loopback server whose usage reports cached prompt tokens, as
 * llama.cpp's server and vLLM do ({@code prompt_tokens_details.cached_tokens}): each record carries its count, the
 * summary their distribution, their sum and the sum's share of the prompt tokens. A server that reports none leaves
 * every such key out, as upstream does.
 */
class PromptCacheUsageEndToEndTest {
    private static final int PROMPT = 20;
    private static final int CACHED = 8;
    private static final int REQUESTS = 6;

    @TempDir
    Path tmp;

    /**
     * A chat server: request n (from 0) reports {@value #CACHED} cached tokens when n % 3 == 0, none when n % 3 == 1,
     * and no cache details at all when n % 3 == 2 (or always, without {@code cache}).
     */
    private static HttpServer server(final boolean cache) throws IOException {
        final AtomicInteger served = new AtomicInteger();
        final HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", exchange -> {
            final String request = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            final int n = served.getAndIncrement();
            final String details = !cache || n % 3 == 2 ? ""
                    : ",\"prompt_tokens_details\":{\"cached_tokens\":" + (n % 3 == 0 ? CACHED : 0) + "}";
            final String usage = "\"usage\":{\"prompt_tokens\":" + PROMPT + ",\"completion_tokens\":2,"
                    + "\"total_tokens\":" + (PROMPT + 2) + details + "}";
            final boolean stream = request.matches("(?s).*\"stream\"\\s*:\\s*true.*");
            final String body = stream
                    ? "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"hello\"}}]}\n\n"
                    + "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\" world\"}}]}\n\n"
                    + "data: {\"choices\":[]," + usage + "}\n\ndata: [DONE]\n\n"
                    : "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"hello world\"}}],"
                    + usage + "}";
            final byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", stream ? "text/event-stream" : "application/json");
            exchange.sendResponseHeaders(200, bytes.length);
            exchange.getResponseBody().write(bytes);
            exchange.close();
        });
        server.start();
        return server;
    }

    /** Runs into {@code tmp/name}; a comma list of concurrencies sweeps. */
    private Runs.Result run(final HttpServer server, final String name, final boolean streaming,
                            final String concurrency) {
        final List<String> args = new java.util.ArrayList<>(List.of("profile", "-m", "m", "-u",
                "http://127.0.0.1:" + server.getAddress().getPort(), "--endpoint-type", "chat", "--request-count",
                String.valueOf(REQUESTS), "--concurrency", concurrency, "--isl", "16", "--osl", "2", "--tokenizer",
                "builtin", "--artifact-dir", tmp.resolve(name).toString()));
        if (streaming) {
            args.add("--streaming");
        }
        final Runs.Result r = Runs.aiperf(args.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return r;
    }

    private static int hints(final String text) {
        return text.split(HINT, -1).length - 1;
    }

    private static final String HINT = "no prompt-cache reads";

    @Test
    void recordsAndSummaryCarryTheCachedPromptTokensTheServerReported() throws Exception {
        final HttpServer server = server(true);
        try {
            final Runs.Result ran = run(server, "cached", true, "1");
            // one request in three reports no cache details, yet the run has its cache reads: no hint
            assertThat(ran.err()).doesNotContain(HINT);
            final Path dir = tmp.resolve("cached");
            final List<JsonNode> records = Runs.jsonl(dir.resolve("profile_export.jsonl"));
            assertThat(records).hasSize(REQUESTS);
            final List<Integer> cached = records.stream()
                    .map(r -> r.path("metrics").path("usage_prompt_cache_read_tokens"))
                    .filter(JsonNode::isObject)
                    .peek(m -> assertThat(m.path("unit").asText()).isEqualTo("tokens"))
                    .map(m -> m.path("value").asInt()).toList();
            assertThat(cached).containsExactlyInAnyOrder(CACHED, CACHED, 0, 0);

            final JsonNode summary = Runs.json(dir.resolve("profile_export_aiperf.json"));
            final JsonNode dist = summary.path("usage_prompt_cache_read_tokens");
            assertThat(dist.path("unit").asText()).isEqualTo("tokens");
            assertThat(dist.path("avg").asDouble()).isCloseTo(CACHED / 2.0, within(1e-9));
            assertThat(dist.path("max").asDouble()).isEqualTo(CACHED);
            assertThat(dist.path("min").asDouble()).isZero();
            final JsonNode total = summary.path("total_usage_prompt_cache_read_tokens");
            assertThat(total.path("unit").asText()).isEqualTo("tokens");
            assertThat(total.path("avg").asDouble()).isEqualTo(2.0 * CACHED);
            // token-weighted: the reads over every reported prompt token, requests without cache details included
            final JsonNode pct = summary.path("overall_usage_prompt_cache_read_pct");
            assertThat(pct.path("unit").asText()).isEqualTo("%");
            assertThat(pct.path("avg").asDouble()).isCloseTo(2.0 * CACHED * 100 / (REQUESTS * PROMPT), within(1e-9));

            final List<String> csv = Files.readAllLines(dir.resolve("profile_export_aiperf.csv"));
            assertThat(csv).anySatisfy(l -> assertThat(l)
                            .startsWith("Usage Prompt Cache Read Tokens (tokens),4.00,0.00,8.00,16.00,"))
                    .contains("Total Usage Prompt Cache Read Tokens (tokens),16.00",
                            "Overall Usage Prompt Cache Read % (%),13.33");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aServerThatReportsNoCachedTokensGetsNoCacheKeys() throws Exception {
        final HttpServer server = server(false);
        try {
            final Runs.Result ran = run(server, "uncached", false, "1");
            assertThat(hints(ran.err())).as(ran.err()).isEqualTo(1);
            final Path dir = tmp.resolve("uncached");
            assertThat(Files.readString(dir.resolve("logs").resolve("aiperf.log"))).contains(HINT);
            final List<JsonNode> records = Runs.jsonl(dir.resolve("profile_export.jsonl"));
            assertThat(records).hasSize(REQUESTS).allSatisfy(r -> {
                assertThat(r.path("metrics").has("usage_prompt_tokens")).isTrue();
                assertThat(r.path("metrics").has("usage_prompt_cache_read_tokens")).isFalse();
            });
            final JsonNode summary = Runs.json(dir.resolve("profile_export_aiperf.json"));
            assertThat(summary.has("total_usage_prompt_tokens")).isTrue();
            assertThat(summary.has("usage_prompt_cache_read_tokens")).isFalse();
            assertThat(summary.has("total_usage_prompt_cache_read_tokens")).isFalse();
            assertThat(summary.has("overall_usage_prompt_cache_read_pct")).isFalse();
            assertThat(Files.readString(dir.resolve("profile_export_aiperf.csv"))).doesNotContain("Cache Read");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void theHintIsSaidOnceForAWholeSweepAndLoggedInEachCell() throws Exception {
        final HttpServer server = server(false);
        try {
            final Runs.Result r = run(server, "sweep", false, "1,2");
            assertThat(hints(r.err() + r.out())).as(r.err()).isEqualTo(1);
            for (final String cell : List.of("concurrency_1", "concurrency_2")) {
                assertThat(Files.readString(tmp.resolve("sweep").resolve(cell).resolve("logs").resolve("aiperf.log")))
                        .as(cell).contains(HINT);
            }
        } finally {
            server.stop(0);
        }
    }

    @Test
    void theEnginesOwnMockGetsNoHintItHasNoCacheToReport() throws Exception {
        final Path dir = tmp.resolve("mock");
        final Runs.Result r = Runs.aiperf("profile", "--mock", "--request-count", "4", "--concurrency", "2",
                "--artifact-dir", dir.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(Runs.json(dir.resolve("profile_export_aiperf.json")).has("total_usage_prompt_tokens"))
                .as("the mock reports usage, so only its name keeps the hint away").isTrue();
        assertThat(hints(r.err() + r.out())).as(r.err()).isZero();
        assertThat(Files.readString(dir.resolve("logs").resolve("aiperf.log"))).doesNotContain(HINT);
    }
}
