package io.aiperf.engine.importer;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.aiperf.engine.metrics.MetricRegistry;
import io.aiperf.engine.metrics.MetricSpec;
import io.aiperf.engine.summary.CellSummary;
import io.aiperf.engine.summary.SummaryCodec;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What every importer promises (src-docs/import.md), checked on each one's sample from {@link ForeignResultsTest}:
 * its summary reads as this engine's ({@link SummaryCodec}), every metric is a catalogue tag in the catalogue's
 * unit with a finite average and percentiles in order, and what it lacks is said in {@code missing}, never filled.
 */
class ImporterContractTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<String, String> SAMPLES = Map.of("vllm", ForeignResultsTest.VLLM,
            "guidellm", ForeignResultsTest.GUIDELLM, "inference-perf", ForeignResultsTest.INFERENCE_PERF);
    private static final List<String> PERCENTILES = List.of("p1", "p5", "p10", "p25", "p50", "p75", "p90", "p95",
            "p99");

    @Test
    void everyImporterWritesCatalogueMetricsInTheCataloguesUnits() throws Exception {
        for (final Map.Entry<String, String> sample : SAMPLES.entrySet()) {
            final List<ImportedRun> runs = ForeignResults.read(JSON.readTree(sample.getValue()));
            assertThat(runs).as(sample.getKey()).isNotEmpty();
            for (final ImportedRun run : runs) {
                final String who = sample.getKey() + " " + run.cell();
                assertThat(run.tool()).as(who).isNotBlank();
                final CellSummary s = SummaryCodec.read(run.summary());
                assertThat(s.metrics()).as(who).isNotEmpty();
                s.metrics().forEach((tag, metric) -> {
                    final MetricSpec spec = MetricRegistry.byTag(tag);
                    assertThat(spec).as(who + ": " + tag + " is a catalogue tag").isNotNull();
                    assertThat(metric.unit()).as(who + ": unit of " + tag).isEqualTo(spec.unit());
                    assertThat(metric.stat("avg")).as(who + ": avg of " + tag).isFinite();
                    double last = Double.NEGATIVE_INFINITY;
                    for (final String p : PERCENTILES) {
                        final double v = metric.stat(p);
                        if (!Double.isNaN(v)) {
                            assertThat(v).as(who + ": " + tag + " " + p + " not below the lower percentiles")
                                    .isGreaterThanOrEqualTo(last);
                            last = v;
                        }
                    }
                });
                for (final String lacking : run.missing()) {
                    assertThat(s.metrics()).as(who + ": " + lacking + " is said missing").doesNotContainKey(lacking);
                }
                assertThat(run.missing()).as(who + ": what it lacks is said").isNotEmpty();
            }
        }
    }
}
