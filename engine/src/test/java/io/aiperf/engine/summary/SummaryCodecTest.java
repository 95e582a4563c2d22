package io.aiperf.engine.summary;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reading {@code profile_export_aiperf.json} into a {@link CellSummary}: every block, and what absence reads as. */
class SummaryCodecTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static JsonNode tree(final String json) throws Exception {
        return JSON.readTree(json.replace('\'', '"'));
    }

    @Test
    void readsEveryBlockOfASummaryThisEngineWrites() throws Exception {
        final CellSummary s = SummaryCodec.read(tree("{'schema_version':'1.5','aiperf_version':'0.1.0',"
                + "'benchmark_id':'b-1',"
                + "'time_to_first_token':{'unit':'ms','avg':12.5,'p50':12.0,'p99':20.0,'min':3,'max':21,'std':2.5,"
                + "'count':40,'sum':500.0},"
                + "'request_count':{'unit':'requests','avg':40},"
                + "'input_config':{'endpoint':{'streaming':true}},"
                + "'run_info':{'trial':0},'was_cancelled':true,"
                + "'error_summary':[{'error_details':{'code':503,'type':'HTTPError','message':'busy'},'count':3},"
                + "{'error_details':{'type':'RequestCancellationError','message':'cancelled'},'count':2}],"
                + "'warmup_metrics':{'request_latency':{'unit':'ms','avg':7.0}},"
                + "'client_health':{'wakeup_delay_p99_ms':0.4,'abandoned_requests':1,"
                + "'open_loop':{'profiling':{'scheduled':100,'sent':98,'schedule_lag_p99_ms':1.5}},"
                + "'transport':{'pool_wait_p99_ms':0.2}},"
                + "'token_accounting':{'compared_requests':40,'client_output_tokens':4000,'server_output_tokens':4010,"
                + "'osl_requests':40,'requested_output_tokens':4100,'delivered_output_tokens':4010},"
                + "'environment':{'config_hash':'abc','fingerprint':{'model':'m','gpu':null}},"
                + "'shards':{'count':2,'requests_sent':[20,20],'start_lateness_ms':[1.0,4.0]},"
                + "'validity':{'result':'warn','checks':[{'name':'sample_size','figure':40,'unit':'requests',"
                + "'result':'warn','message':'40 valid requests','fix':'more requests'},"
                + "{'name':'error_share','figure':0,'unit':'%','result':'ok','message':'0.0%'}]}}"));
        assertThat(s.schemaVersion()).isEqualTo("1.5");
        assertThat(s.aiperfVersion()).isEqualTo("0.1.0");
        assertThat(s.benchmarkId()).isEqualTo("b-1");
        assertThat(s.metrics()).containsOnlyKeys("time_to_first_token", "request_count");
        assertThat(s.metric("time_to_first_token").unit()).isEqualTo("ms");
        assertThat(s.metric("time_to_first_token").stats().keySet())
                .containsExactly("avg", "p50", "p99", "min", "max", "std", "count", "sum");
        assertThat(s.stat("time_to_first_token", "p99")).isEqualTo(20.0);
        assertThat(s.stat("time_to_first_token", "count")).isEqualTo(40.0);
        assertThat(s.stat("time_to_first_token", "p90")).isNaN();
        assertThat(s.stat("inter_token_latency", "avg")).isNaN();
        assertThat(s.inputConfig().path("endpoint").path("streaming").asBoolean()).isTrue();
        assertThat(s.wasCancelled()).isTrue();
        assertThat(s.errors()).containsExactly(new CellSummary.ErrorCount(503, "HTTPError", "busy", 3),
                new CellSummary.ErrorCount(null, "RequestCancellationError", "cancelled", 2));
        assertThat(s.warmup()).containsOnlyKeys("request_latency");
        assertThat(s.health().wakeupDelayP99Ms()).isEqualTo(0.4);
        assertThat(s.health().abandonedRequests()).isEqualTo(1.0);
        assertThat(s.health().openLoop()).containsExactly(
                java.util.Map.entry("profiling", new CellSummary.OpenLoop(100, 98, 1.5)));
        assertThat(s.health().poolWaitP99Ms()).isEqualTo(0.2);
        assertThat(s.tokens()).isEqualTo(new CellSummary.TokenAccounting(40, 4000, 4010, 40, 4100, 4010));
        assertThat(s.environment().configHash()).isEqualTo("abc");
        assertThat(s.environment().fingerprint()).containsEntry("model", "m").containsEntry("gpu", null)
                .hasSize(2);
        assertThat(s.shards()).isEqualTo(new CellSummary.Shards(2, List.of(1.0, 4.0), List.of()));
        assertThat(s.validityResult()).isEqualTo("warn");
        assertThat(s.validityChecks()).containsExactly(
                new CellSummary.ValidityCheck("sample_size", "warn", "40 valid requests", "more requests"),
                new CellSummary.ValidityCheck("error_share", "ok", "0.0%", null));
    }

    /** Upstream AIPerf's summary has metrics and little else: absent blocks are "not recorded", not zero. */
    @Test
    void aSummaryWithoutThisEnginesBlocksReadsAsNotRecorded() throws Exception {
        final CellSummary s = SummaryCodec.read(tree("{'request_latency':{'unit':'ms','avg':100.0},"
                + "'not_a_metric':{'avg':1},'benchmark_duration':{'unit':'sec','avg':10}}"));
        assertThat(s.metrics()).containsOnlyKeys("request_latency", "benchmark_duration");
        assertThat(s.inputConfig().isObject()).isTrue();
        assertThat(s.inputConfig().isEmpty()).isTrue();
        assertThat(s.warmup()).isNull();
        assertThat(s.shards()).isNull();
        assertThat(s.validityResult()).isNull();
        assertThat(s.validityChecks()).isEmpty();
        assertThat(s.errors()).isEmpty();
        assertThat(s.health().wakeupDelayP99Ms()).isNaN();
        assertThat(s.health().abandonedRequests()).isNaN();
        assertThat(s.health().poolWaitP99Ms()).isNaN();
        assertThat(s.health().openLoop()).isEmpty();
        assertThat(s.tokens()).isEqualTo(new CellSummary.TokenAccounting(0, 0, 0, 0, 0, 0));
        assertThat(s.environment().configHash()).isNull();
        assertThat(s.environment().fingerprint()).isEmpty();
    }

    @Test
    void aMetricIsAnObjectWithAUnit() throws Exception {
        assertThat(SummaryCodec.isMetric(tree("{'unit':'ms'}"))).isTrue();
        assertThat(SummaryCodec.isMetric(tree("{'avg':1}"))).isFalse();
        assertThat(SummaryCodec.isMetric(tree("['unit']"))).isFalse();
    }
}
