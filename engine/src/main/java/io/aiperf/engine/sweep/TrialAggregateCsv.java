package io.aiperf.engine.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.summary.AggregateCodec;
import io.aiperf.engine.summary.ExportFiles;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The CSV twin of {@code profile_export_aiperf_aggregate.json}, in upstream AIPerf's layout: one row per
 * {@code <tag>_<stat>} key with {@code metric,mean,std,min,max,cv,se,ci_low,ci_high,t_critical,unit} (two decimals,
 * four for cv, se and t_critical; empty where undefined), a blank line, then the metadata as {@code Name,value} rows
 * (the counts, then every other metadata key title-cased, its value as upstream prints it).
 * Stateless.
 */
public final class TrialAggregateCsv {
    public static final String FILE = ExportFiles.AGGREGATE_CSV;
    private static final String[] STATS = {AggregateCodec.MEAN, AggregateCodec.STD,
        AggregateCodec.MIN, AggregateCodec.MAX, AggregateCodec.CV, AggregateCodec.SE, AggregateCodec.CI_LOW,
        AggregateCodec.CI_HIGH, AggregateCodec.T_CRITICAL};

    /** The metadata keys printed first, under their own names. */
    private static final java.util.Set<String> HEAD = java.util.Set.of(AggregateCodec.AGGREGATION_TYPE,
            AggregateCodec.NUM_PROFILE_RUNS, AggregateCodec.NUM_SUCCESSFUL_RUNS, AggregateCodec.FAILED_RUNS);

    private TrialAggregateCsv() {
    }

    public static byte[] bytes(final JsonNode aggregate) {
        final StringBuilder out = new StringBuilder("metric,").append(String.join(",", STATS)).append(",unit\r\n");
        aggregate.path(AggregateCodec.METRICS).properties().forEach(e -> {
            out.append(e.getKey());
            for (final String stat : STATS) {
                final JsonNode v = e.getValue().get(stat);
                final boolean fine = stat.equals(AggregateCodec.CV) || stat.equals(AggregateCodec.SE)
                        || stat.equals(AggregateCodec.T_CRITICAL);
                out.append(',').append(v == null || !v.isNumber() ? "" : format(v.doubleValue(), fine ? 4 : 2));
            }
            out.append(',').append(e.getValue().path(AggregateCodec.UNIT).asText("")).append("\r\n");
        });
        final JsonNode meta = aggregate.path(AggregateCodec.METADATA);
        out.append("\r\n");
        out.append("Aggregation Type,").append(meta.path(AggregateCodec.AGGREGATION_TYPE).asText()).append("\r\n");
        out.append("Total Runs,").append(meta.path(AggregateCodec.NUM_PROFILE_RUNS).asInt()).append("\r\n");
        out.append("Successful Runs,").append(meta.path(AggregateCodec.NUM_SUCCESSFUL_RUNS).asInt()).append("\r\n");
        // then the rest of the metadata, each key title-cased, as upstream lists it
        meta.properties().forEach(e -> {
            if (!HEAD.contains(e.getKey())) {
                out.append(CsvCells.cell(CsvCells.title(e.getKey()))).append(',')
                        .append(CsvCells.cell(CsvCells.pythonic(e.getValue()))).append("\r\n");
            }
        });
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static String format(final double v, final int decimals) {
        if (Double.isNaN(v)) {
            return "";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "inf" : "-inf";
        }
        return String.format(Locale.ROOT, "%." + decimals + "f", v);
    }
}
