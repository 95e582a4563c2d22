package io.aiperf.engine.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import io.aiperf.engine.summary.AggregateCodec;
import io.aiperf.engine.summary.ExportFiles;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * The CSV twin of {@code profile_export_aiperf_sweep.json}, in upstream AIPerf 0.13's layout: a table with one row
 * per combination (its parameters, then {@code <metric>_mean,_std,_min,_max,_cv} for every metric key of any
 * combination, sorted), then the sections {@code Best Configurations}, {@code Pareto Optimal Points} and
 * {@code Metadata}, each after a blank line. Stateless.
 */
public final class SweepAggregateCsv {
    public static final String FILE = ExportFiles.SWEEP_CSV;
    private static final String EOL = "\r\n";
    private static final String[] STATS = {AggregateCodec.MEAN, AggregateCodec.STD, AggregateCodec.MIN,
        AggregateCodec.MAX, AggregateCodec.CV};

    private SweepAggregateCsv() {
    }

    public static byte[] bytes(final JsonNode sweep) {
        final StringBuilder out = new StringBuilder();
        final List<String> params = new ArrayList<>();
        sweep.path(AggregateCodec.METADATA).path(AggregateCodec.SWEEP_PARAMETERS)
                .forEach(p -> params.add(p.path(AggregateCodec.NAME).asText()));
        final JsonNode combos = sweep.path(AggregateCodec.PER_COMBINATION_METRICS);
        if (!combos.isEmpty()) {
            final TreeSet<String> keys = new TreeSet<>();
            combos.forEach(c -> c.path(AggregateCodec.METRICS).fieldNames().forEachRemaining(keys::add));
            final List<String> header = new ArrayList<>(params);
            keys.forEach(k -> {
                for (final String stat : STATS) {
                    header.add(k + "_" + stat);
                }
            });
            row(out, header);
            for (final JsonNode c : combos) {
                final List<String> row = parameters(c.path(AggregateCodec.PARAMETERS), params);
                for (final String k : keys) {
                    final JsonNode m = c.path(AggregateCodec.METRICS).path(k);
                    for (final String stat : STATS) {
                        row.add(CsvCells.number(m.get(stat), stat.equals(AggregateCodec.CV) ? 4 : 2));
                    }
                }
                row(out, row);
            }
        }
        out.append(EOL).append("Best Configurations").append(EOL);
        final JsonNode best = sweep.path(AggregateCodec.BEST_CONFIGURATIONS);
        if (!best.isEmpty()) {
            final List<String> header = new ArrayList<>(List.of("Configuration"));
            header.addAll(params);
            header.addAll(List.of("Metric", "Unit"));
            row(out, header);
            best.properties().forEach(e -> {
                final List<String> row = new ArrayList<>(List.of(CsvCells.title(e.getKey())));
                row.addAll(parameters(e.getValue().path(AggregateCodec.PARAMETERS), params));
                row.add(CsvCells.number(e.getValue().get(AggregateCodec.METRIC), 2));
                row.add(e.getValue().path(AggregateCodec.UNIT).asText(""));
                row(out, row);
            });
        }
        out.append(EOL).append("Pareto Optimal Points").append(EOL);
        final JsonNode pareto = sweep.path(AggregateCodec.PARETO_OPTIMAL);
        if (pareto.isEmpty()) {
            out.append("None").append(EOL);
        } else {
            row(out, params);
            pareto.forEach(p -> row(out, parameters(p, params)));
        }
        final JsonNode meta = sweep.path(AggregateCodec.METADATA);
        out.append(EOL).append("Metadata").append(EOL).append("Field,Value").append(EOL);
        row(out, List.of("Aggregation Type", sweep.path(AggregateCodec.AGGREGATION_TYPE).asText()));
        row(out, List.of("Sweep Parameters", String.join(", ", params)));
        row(out, List.of("Number of Combinations", meta.path(AggregateCodec.NUM_COMBINATIONS).asText()));
        row(out, List.of("Number of Profile Runs", sweep.path(AggregateCodec.NUM_PROFILE_RUNS).asText()));
        row(out, List.of("Number of Successful Runs", sweep.path(AggregateCodec.NUM_SUCCESSFUL_RUNS).asText()));
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    private static List<String> parameters(final JsonNode values, final List<String> params) {
        final List<String> row = new ArrayList<>();
        for (final String p : params) {
            final JsonNode v = values.get(p);
            row.add(v == null || v.isNull() ? "" : CsvCells.pythonic(v));
        }
        return row;
    }

    private static void row(final StringBuilder out, final List<String> cells) {
        final List<String> quoted = cells.stream().map(CsvCells::cell).toList();
        out.append(String.join(",", quoted)).append(EOL);
    }
}
