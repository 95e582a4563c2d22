package io.aiperf.engine.report;

import io.aiperf.engine.summary.RecordCodec;
import io.aiperf.engine.summary.RecordLine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What the report draws from a cell's records, read in one pass through {@link RecordCodec}: each request's latency,
 * and each valid request's start and end. Only those values are kept, in primitive arrays (each line's value is
 * dropped once read), so a cell of 400,000 records costs a few megabytes, not a tree per line.
 *
 * @param latencies {@code request_latency} of each record that has one (ms)
 * @param starts {@code request_start_ns} of each valid record (no error) with an end (epoch ns; failed and cancelled
 *               records have an end too)
 * @param ends {@code request_end_ns} of the same records
 * @param ttfts {@code time_to_first_token} of each record that has one (ms; streamed answers only)
 * @param itls {@code inter_token_latency} of each record that has one (ms)
 * @param ttftStarts {@code request_start_ns} of the record of each of {@code ttfts}, in the same order (epoch ns)
 * @param itlStarts {@code request_start_ns} of the record of each of {@code itls}, in the same order (epoch ns)
 */
record RecordScan(double[] latencies, long[] starts, long[] ends, double[] ttfts, double[] itls, long[] ttftStarts,
                  long[] itlStarts) {
    static final RecordScan EMPTY = new RecordScan(new double[0], new long[0], new long[0], new double[0],
            new double[0], new long[0], new long[0]);

    /** Reads {@code file}; a missing file is empty, a damaged line (a killed run's last) is left out with a warning. */
    static RecordScan of(final Path file) {
        if (!Files.isRegularFile(file)) {
            return EMPTY;
        }
        final Builder b = new Builder();
        final int[] damaged = {0};
        try {
            RecordCodec.forEach(file, b::record, number -> {
                if (damaged[0]++ == 0) {
                    System.err.println("warning: report: " + file + " line " + number + " is not a whole JSON "
                            + "record (cut short?); such lines are left out");
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return b.build();
    }

    /** Growable primitive columns. */
    private static final class Builder {
        final Column latencies = new Column();
        final Column ttfts = new Column();
        final Column itls = new Column();
        long[] ttftStarts = new long[1024];
        long[] itlStarts = new long[1024];
        long[] starts = new long[1024];
        long[] ends = new long[1024];
        int nSpans;

        void record(final RecordLine r) {
            add(latencies, r, "request_latency");
            if (add(ttfts, r, "time_to_first_token")) {
                if (ttfts.n == ttftStarts.length) {
                    ttftStarts = Arrays.copyOf(ttftStarts, ttfts.n * 2);
                }
                ttftStarts[ttfts.n - 1] = Math.max(0, r.metadata().requestStartNs());
            }
            if (add(itls, r, "inter_token_latency")) {
                if (itls.n == itlStarts.length) {
                    itlStarts = Arrays.copyOf(itlStarts, itls.n * 2);
                }
                itlStarts[itls.n - 1] = Math.max(0, r.metadata().requestStartNs());
            }
            final long end = r.metadata().requestEndNs();
            if (end >= 0 && r.valid()) {
                if (nSpans == starts.length) {
                    starts = Arrays.copyOf(starts, nSpans * 2);
                    ends = Arrays.copyOf(ends, nSpans * 2);
                }
                starts[nSpans] = Math.max(0, r.metadata().requestStartNs());
                ends[nSpans++] = end;
            }
        }

        /** Adds the record's value of {@code tag}, if it has one; whether it had. */
        private static boolean add(final Column column, final RecordLine r, final String tag) {
            final RecordLine.Metric m = r.metric(tag);
            if (m != null && m.value() != null) {
                column.add(m.number());
                return true;
            }
            return false;
        }

        RecordScan build() {
            return new RecordScan(latencies.values(), Arrays.copyOf(starts, nSpans), Arrays.copyOf(ends, nSpans),
                    ttfts.values(), itls.values(), Arrays.copyOf(ttftStarts, ttfts.n),
                    Arrays.copyOf(itlStarts, itls.n));
        }
    }

    /** A growable column of doubles. */
    private static final class Column {
        private double[] values = new double[1024];
        private int n;

        void add(final double v) {
            if (n == values.length) {
                values = Arrays.copyOf(values, n * 2);
            }
            values[n++] = v;
        }

        double[] values() {
            return Arrays.copyOf(values, n);
        }
    }
}
