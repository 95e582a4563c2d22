package io.aiperf.engine.telemetry;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.client.ProbeClient;
import io.aiperf.engine.config.NetworkConfig;
import io.aiperf.engine.net.RecordingServer;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * server_metrics_export.csv and .json in upstream AIPerf 0.13's layout, from a loopback server that answers one
 * page at the window's first scrape and another at its last (the interval is an hour, so there are no others).
 */
class ServerMetricsExportTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final ServerMetrics.About ABOUT = new ServerMetrics.About("9.9.9", "bench-1",
            JSON.createObjectNode().put("marker", true));

    /** The mock's names: vLLM gauges, counters and a histogram, and DCGM gauges with labels of their own. */
    private static String vllm(final int requests) {
        return "# HELP vllm:num_requests_running Requests being answered.\n"
                + "# TYPE vllm:num_requests_running gauge\n"
                + "vllm:num_requests_running{model_name=\"m\"} " + (requests == 0 ? 0 : 2) + "\n"
                + "# HELP vllm:kv_cache_usage_perc Share of the KV cache in use.\n"
                + "# TYPE vllm:kv_cache_usage_perc gauge\n"
                + "vllm:kv_cache_usage_perc{model_name=\"m\"} 0.5\n"
                + "# HELP vllm:request_success_total Requests answered.\n"
                + "# TYPE vllm:request_success_total counter\n"
                + "vllm:request_success_total{model_name=\"m\"} " + requests + "\n"
                + "# HELP vllm:e2e_request_latency_seconds Request latency.\n"
                + "# TYPE vllm:e2e_request_latency_seconds histogram\n"
                + "vllm:e2e_request_latency_seconds_bucket{le=\"0.05\",model_name=\"m\"} 0\n"
                + "vllm:e2e_request_latency_seconds_bucket{le=\"0.1\",model_name=\"m\"} " + requests + "\n"
                + "vllm:e2e_request_latency_seconds_bucket{le=\"+Inf\",model_name=\"m\"} " + requests + "\n"
                + "vllm:e2e_request_latency_seconds_sum{model_name=\"m\"} " + requests * 0.075 + "\n"
                + "vllm:e2e_request_latency_seconds_count{model_name=\"m\"} " + requests + "\n"
                + "# HELP DCGM_FI_DEV_POWER_USAGE Power draw (W).\n"
                + "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n"
                + "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-1\"} " + (requests == 0 ? 60 : 100) + "\n"
                + "# HELP python_info Python platform information\n"
                + "# TYPE python_info gauge\n"
                + "python_info{implementation=\"CPython\",major=\"3\"} 1.0\n"
                + "# HELP rpc_duration_seconds A summary.\n"
                + "# TYPE rpc_duration_seconds summary\n"
                + "rpc_duration_seconds{quantile=\"0.5\"} 1\n"
                + "rpc_duration_seconds_sum 1\nrpc_duration_seconds_count 1\n"
                + "# HELP process_uptime Seconds up.\n# TYPE process_uptime gauge\nprocess_uptime 5\n";
    }

    /** llama.cpp's server's names: counters with and without {@code _total}, gauges without labels. */
    private static String llama(final int tokens) {
        return "# HELP llamacpp:prompt_tokens_total Number of prompt tokens processed.\n"
                + "# TYPE llamacpp:prompt_tokens_total counter\n"
                + "llamacpp:prompt_tokens_total " + tokens + "\n"
                + "# HELP llamacpp:n_busy_slots_per_decode Average number of busy slots per llama_decode() call\n"
                + "# TYPE llamacpp:n_busy_slots_per_decode counter\n"
                + "llamacpp:n_busy_slots_per_decode " + (tokens == 0 ? 0 : 1) + "\n"
                + "# HELP llamacpp:requests_processing Number of requests processing.\n"
                + "# TYPE llamacpp:requests_processing gauge\n"
                + "llamacpp:requests_processing " + (tokens == 0 ? 0 : 1) + "\n"
                + "# HELP llamacpp:kv_cache_usage_ratio KV-cache usage. 1 = 100 percent usage.\n"
                + "# TYPE llamacpp:kv_cache_usage_ratio gauge\n"
                + "llamacpp:kv_cache_usage_ratio 0.25\n"
                + "untyped_thing 7\n";
    }

    /** Scrapes a server that answers {@code before} first and {@code after} from then on, over one window. */
    private static ServerMetrics scrape(final String before, final String after) throws Exception {
        return scrape(before, after, "");
    }

    /** As {@link #scrape(String, String)}, with {@code userInfo} ("user:password@", or "") in the URL. */
    private static ServerMetrics scrape(final String before, final String after, final String userInfo)
            throws Exception {
        final AtomicInteger calls = new AtomicInteger();
        try (RecordingServer server = new RecordingServer(out -> {
            final byte[] body = (calls.getAndIncrement() == 0 ? before : after).getBytes(StandardCharsets.UTF_8);
            out.write(("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length
                    + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.write(body);
        })) {
            final ServerMetricsCollector c = new ServerMetricsCollector(List.of(URI.create(server.origin()
                    .replace("//", "//" + userInfo) + "/metrics")), Map.of(), 3600, new ProbeClient(NetworkConfig.defaults()));
            c.phaseStarted();
            c.phaseDrained();
            assertThat(calls.get()).isEqualTo(2);
            return c.result();
        }
    }

    private static List<String> rows(final ServerMetrics m) {
        return List.of(new String(m.csv(ABOUT), StandardCharsets.UTF_8).split("\r?\n", -1));
    }

    @Test
    void theCsvHasUpstreamsCommentHeaderAndASectionPerTypeKeyedByTheEndpoint() throws Exception {
        final ServerMetrics m = scrape(vllm(0), vllm(10));
        final String csv = new String(m.csv(ABOUT), StandardCharsets.UTF_8);
        assertThat(csv).startsWith("# AIPerf Server Metrics Export (CSV)\n# aiperf_version: 9.9.9\n"
                + "# schema_version: 1.0\n# benchmark_id: bench-1\n");
        final String endpoint = m.targets().get(0).uri.getHost() + ":" + m.targets().get(0).uri.getPort();
        final List<String> rows = rows(m);
        assertThat(rows.subList(6, rows.size())).containsExactly(
                "Endpoint,Type,Metric,Unit,avg,min,max,std,p1,p5,p10,p25,p50,p75,p90,p95,p99,UUID,gpu,model_name,"
                        + "Description",
                endpoint + ",gauge,vllm:kv_cache_usage_perc,percent,0.5000,0.5000,0.5000,0.0000,0.5000,0.5000,"
                        + "0.5000,0.5000,0.5000,0.5000,0.5000,0.5000,0.5000,,,m,Share of the KV cache in use.",
                endpoint + ",gauge,vllm:num_requests_running,requests,1.0000,0.0000,2.0000,1.4142,0.0200,0.1000,"
                        + "0.2000,0.5000,1.0000,1.5000,1.8000,1.9000,1.9800,,,m,Requests being answered.",
                endpoint + ",gauge,DCGM_FI_DEV_POWER_USAGE,,80.0000,60.0000,100.0000,28.2843,60.4000,62.0000,"
                        + "64.0000,70.0000,80.0000,90.0000,96.0000,98.0000,99.6000,GPU-1,0,,Power draw (W).",
                "",
                rows.get(11), // the counter section's header and its row: the rate depends on the scrapes' times
                rows.get(12),
                "",
                "Endpoint,Type,Metric,Unit,count,count_rate,sum,sum_rate,avg,p1_estimate,p5_estimate,p10_estimate,"
                        + "p25_estimate,p50_estimate,p75_estimate,p90_estimate,p95_estimate,p99_estimate,model_name,"
                        + "Description,buckets",
                rows.get(15),
                "",
                "Endpoint,Metric,Key,Value,Description",
                endpoint + ",python_info,implementation,CPython,Python platform information",
                endpoint + ",python_info,major,3,Python platform information",
                "");
        assertThat(rows.get(11)).isEqualTo("Endpoint,Type,Metric,Unit,total,rate,rate_avg,rate_min,rate_max,"
                + "rate_std,model_name,Description");
        assertThat(rows.get(12)).matches(java.util.regex.Pattern.quote(endpoint
                + ",counter,vllm:request_success,requests,10.0000,") + "\\d+\\.\\d{4},,,,,m,Requests answered\\.");
        // ten observations, all in (0.05, 0.1]: the estimates interpolate inside that bucket
        assertThat(rows.get(15)).matches(java.util.regex.Pattern.quote(endpoint
                + ",histogram,vllm:e2e_request_latency_seconds,seconds,10,") + "\\d+\\.\\d{4},0\\.7500,\\d+\\.\\d{4},"
                + java.util.regex.Pattern.quote("0.0750,0.0505,0.0525,0.0550,0.0625,0.0750,0.0875,0.0950,0.0975,"
                + "0.0995,m,Request latency.,0.05=0;0.1=10;+Inf=10"));
    }

    @Test
    void theCsvsEndpointIsHostPortAndPathWithoutMetricsAndNeverACredential() {
        assertThat(ServerMetricsCsv.display("http://127.0.0.1:8000/metrics")).isEqualTo("127.0.0.1:8000");
        assertThat(ServerMetricsCsv.display("https://perf:s3cret@gw.example:9400/api/metrics"))
                .isEqualTo("gw.example:9400/api");
        assertThat(ServerMetricsCsv.display("http://node2/prometheus/metrics")).isEqualTo("node2/prometheus");
        assertThat(ServerMetricsCsv.display("http://<redacted>@gw:9400/metrics?token=t")).isEqualTo("gw:9400");
    }

    @Test
    void theJsonHasUpstreamsKeysWithMetricsByNameAndASeriesPerEndpoint() throws Exception {
        final ServerMetrics m = scrape(vllm(0), vllm(10));
        final JsonNode json = JSON.readTree(m.json(ABOUT));
        assertThat(json.properties().stream().map(Map.Entry::getKey).toList()).containsExactly("schema_version",
                "aiperf_version", "benchmark_id", "summary", "metrics_phase", "metrics", "input_config",
                "highlights");
        assertThat(json.path("schema_version").asText()).isEqualTo("1.1");
        assertThat(json.path("metrics_phase").asText()).isEqualTo("profiling");
        assertThat(json.path("input_config").path("marker").asBoolean()).isTrue();
        final String url = m.targets().get(0).shown();
        final JsonNode summary = json.path("summary");
        assertThat(summary.path("endpoints_configured").get(0).asText()).isEqualTo(url);
        assertThat(summary.path("endpoints_successful").get(0).asText()).isEqualTo(url);
        assertThat(summary.path("start_time").asText()).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{6}");
        final JsonNode info = summary.path("endpoint_info").path(url);
        assertThat(info.path("total_fetches").asInt()).isEqualTo(2);
        assertThat(info.path("unique_updates").asInt()).isEqualTo(2);
        assertThat(info.properties().stream().map(Map.Entry::getKey).toList()).containsExactly("total_fetches",
                "first_fetch_ns", "last_fetch_ns", "avg_fetch_latency_ms", "unique_updates", "first_update_ns",
                "last_update_ns", "duration_seconds", "avg_update_interval_ms", "median_update_interval_ms");
        assertThat(summary.path("phase_time_ranges").path("profiling").path("end_ns").asLong())
                .isGreaterThan(summary.path("phase_time_ranges").path("profiling").path("start_ns").asLong());
        final JsonNode metrics = json.path("metrics");
        assertThat(metrics.properties().stream().map(Map.Entry::getKey).toList()).containsExactly(
                "DCGM_FI_DEV_POWER_USAGE", "python_info", "vllm:e2e_request_latency_seconds",
                "vllm:kv_cache_usage_perc", "vllm:num_requests_running", "vllm:request_success");
        final JsonNode success = metrics.path("vllm:request_success");
        assertThat(success.path("type").asText()).isEqualTo("counter");
        assertThat(success.path("description").asText()).isEqualTo("Requests answered.");
        assertThat(success.path("unit").asText()).isEqualTo("requests");
        final JsonNode series = success.path("series").get(0);
        assertThat(series.path("endpoint_url").asText()).isEqualTo(url);
        assertThat(series.path("labels").path("model_name").asText()).isEqualTo("m");
        assertThat(series.path("stats").path("total").asDouble()).isEqualTo(10.0);
        assertThat(series.path("stats").properties().stream().map(Map.Entry::getKey).toList())
                .containsExactly("total", "rate");
        final JsonNode histogram = metrics.path("vllm:e2e_request_latency_seconds").path("series").get(0);
        assertThat(histogram.path("stats").path("count").isIntegralNumber()).isTrue();
        assertThat(histogram.path("stats").properties().stream().map(Map.Entry::getKey).toList()).containsExactly(
                "count", "sum", "avg", "count_rate", "sum_rate", "p1_estimate", "p5_estimate", "p10_estimate",
                "p25_estimate", "p50_estimate", "p75_estimate", "p90_estimate", "p95_estimate", "p99_estimate");
        assertThat(histogram.path("buckets").path("0.1").asLong()).isEqualTo(10);
        assertThat(metrics.path("vllm:kv_cache_usage_perc").path("series").get(0).path("stats").path("std")
                .asDouble()).isZero();
        assertThat(json.path("highlights").path("requests_running_max").asDouble()).isEqualTo(2.0);
    }

    /** A user-info too short to be one of the run's secrets (no stream masks it) is still never written. */
    @Test
    void theJsonNeverShowsAUrlsUserInfoHoweverShort() throws Exception {
        final ServerMetrics m = scrape(vllm(0), vllm(10), "u:pw@");
        final String json = new String(m.json(ABOUT), StandardCharsets.UTF_8);
        assertThat(json).doesNotContain("u:pw").contains("//<redacted>@127.0.0.1");
        assertThat(new String(m.csv(ABOUT), StandardCharsets.UTF_8)).doesNotContain("u:pw").contains("127.0.0.1:");
        assertThat(JSON.readTree(json).path("summary").path("endpoints_successful")).hasSize(1);
        assertThat(m.unanswered()).isEmpty();
    }

    @Test
    void llamaCppsNamesLoseTheirTotalAndTakeTheirUnitsFromNameOrHelp() throws Exception {
        final ServerMetrics m = scrape(llama(0), llama(100));
        final JsonNode metrics = JSON.readTree(m.json(ABOUT)).path("metrics");
        assertThat(metrics.properties().stream().map(Map.Entry::getKey).toList()).containsExactly(
                "llamacpp:kv_cache_usage_ratio", "llamacpp:n_busy_slots_per_decode", "llamacpp:prompt_tokens",
                "llamacpp:requests_processing", "untyped_thing");
        assertThat(metrics.path("llamacpp:prompt_tokens").path("unit").asText()).isEqualTo("tokens");
        assertThat(metrics.path("llamacpp:prompt_tokens").path("series").get(0).path("stats").path("total")
                .asDouble()).isEqualTo(100.0);
        assertThat(metrics.path("llamacpp:kv_cache_usage_ratio").path("unit").asText()).isEqualTo("ratio");
        assertThat(metrics.path("llamacpp:requests_processing").has("unit")).isFalse();
        assertThat(metrics.path("llamacpp:requests_processing").path("series").get(0).has("labels")).isFalse();
        assertThat(metrics.path("untyped_thing").path("type").asText()).isEqualTo("unknown");
        final List<String> rows = rows(m);
        final String endpoint = m.targets().get(0).uri.getHost() + ":" + m.targets().get(0).uri.getPort();
        assertThat(rows.get(6)).isEqualTo("Endpoint,Type,Metric,Unit,avg,min,max,std,p1,p5,p10,p25,p50,p75,p90,p95,"
                + "p99,Description");
        assertThat(rows.get(7)).startsWith(endpoint + ",gauge,llamacpp:kv_cache_usage_ratio,ratio,0.2500,");
        assertThat(rows).contains("Endpoint,Type,Metric,Unit,total,rate,rate_avg,rate_min,rate_max,rate_std,"
                + "Description");
        assertThat(rows).anyMatch(r -> r.startsWith(endpoint + ",counter,llamacpp:prompt_tokens,tokens,100.0000,"))
                .anyMatch(r -> r.startsWith(endpoint + ",unknown,untyped_thing,,7.0000,"));
    }
}
