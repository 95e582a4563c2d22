package io.aiperf.engine.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What the report draws from a cell's records, read in one streaming pass: each request's latency, and each valid
 * request's start and end. Only those fields are read (the rest of a record is skipped unparsed) into primitive
 * arrays, so a cell of 400,000 records costs a few megabytes, not a tree per line.
 *
 * @param latencies {@code metrics.request_latency.value} of each record that has one (ms)
 * @param starts {@code metadata.request_start_ns} of each valid record (no {@code error}) with an end (epoch ns;
 *               failed and cancelled records have an end too)
 * @param ends {@code metadata.request_end_ns} of the same records
 * @param ttfts {@code metrics.time_to_first_token.value} of each record that has one (ms; streamed answers only)
 * @param itls {@code metrics.inter_token_latency.value} of each record that has one (ms)
 */
record RecordScan(double[] latencies, long[] starts, long[] ends, double[] ttfts, double[] itls) {
    private static final JsonFactory JSON = new JsonFactory();
    static final RecordScan EMPTY = new RecordScan(new double[0], new long[0], new long[0], new double[0],
            new double[0]);

    /** Reads {@code file}; a missing file is empty, a damaged line (a killed run's last) is left out with a warning. */
    static RecordScan of(final Path file) {
        // Lines are parsed one by one, so one damaged line costs only itself.
        if (!Files.isRegularFile(file)) {
            return EMPTY;
        }
        final Builder b = new Builder();
        try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            String line;
            int number = 0;
            int damaged = 0;
            while ((line = in.readLine()) != null) {
                number++;
                if (line.isBlank()) {
                    continue;
                }
                try (JsonParser p = JSON.createParser(line)) {
                    b.record(p);
                } catch (com.fasterxml.jackson.core.JsonProcessingException bad) {
                    if (damaged++ == 0) {
                        System.err.println("warning: report: " + file + " line " + number + " is not a whole JSON "
                                + "record (cut short?); such lines are left out");
                    }
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
        return b.build();
    }

    /** Growable primitive columns, and the fields of the record being read (kept only once it is whole). */
    private static final class Builder {
        final Column latencies = new Column();
        final Column ttfts = new Column();
        final Column itls = new Column();
        long[] starts = new long[1024];
        long[] ends = new long[1024];
        int nSpans;
        double latency;
        double ttft;
        double itl;
        long start;
        long end;
        boolean hasLatency;
        boolean hasTtft;
        boolean hasItl;
        boolean hasStart;
        boolean hasEnd;
        boolean failed;

        void record(final JsonParser p) throws IOException {
            hasLatency = hasTtft = hasItl = hasStart = hasEnd = failed = false;
            if (p.nextToken() != JsonToken.START_OBJECT) {
                return;
            }
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                final String name = p.currentName();
                final JsonToken value = p.nextToken();
                if (value == JsonToken.START_OBJECT && name.equals("metrics")) {
                    metrics(p);
                } else if (value == JsonToken.START_OBJECT && name.equals("metadata")) {
                    metadata(p);
                } else if (name.equals("error")) {
                    failed = value != JsonToken.VALUE_NULL;
                    p.skipChildren();
                } else {
                    p.skipChildren();
                }
            }
            if (p.currentToken() != JsonToken.END_OBJECT) {
                throw new com.fasterxml.jackson.core.JsonParseException(p, "record not closed");
            }
            if (hasLatency) {
                latencies.add(latency);
            }
            if (hasTtft) {
                ttfts.add(ttft);
            }
            if (hasItl) {
                itls.add(itl);
            }
            if (hasEnd && !failed) {
                if (nSpans == starts.length) {
                    starts = Arrays.copyOf(starts, nSpans * 2);
                    ends = Arrays.copyOf(ends, nSpans * 2);
                }
                starts[nSpans] = hasStart ? start : 0;
                ends[nSpans++] = end;
            }
        }

        /** {@code "metrics": {"request_latency": {"value": ...}, ...}}. */
        private void metrics(final JsonParser p) throws IOException {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                final String name = p.currentName();
                final JsonToken value = p.nextToken();
                final int which = name.equals("request_latency") ? 0 : name.equals("time_to_first_token") ? 1
                        : name.equals("inter_token_latency") ? 2 : -1;
                if (value == JsonToken.START_OBJECT && which >= 0) {
                    while (p.nextToken() == JsonToken.FIELD_NAME) {
                        final String field = p.currentName();
                        final JsonToken v = p.nextToken();
                        if (field.equals("value") && v.isNumeric()) {
                            final double d = p.getDoubleValue();
                            switch (which) {
                                case 0 -> {
                                    latency = d;
                                    hasLatency = true;
                                }
                                case 1 -> {
                                    ttft = d;
                                    hasTtft = true;
                                }
                                default -> {
                                    itl = d;
                                    hasItl = true;
                                }
                            }
                        } else {
                            p.skipChildren();
                        }
                    }
                } else {
                    p.skipChildren();
                }
            }
        }

        private void metadata(final JsonParser p) throws IOException {
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                final String name = p.currentName();
                final JsonToken value = p.nextToken();
                if (name.equals("request_start_ns") && value.isNumeric()) {
                    start = p.getLongValue();
                    hasStart = true;
                } else if (name.equals("request_end_ns") && value.isNumeric()) {
                    end = p.getLongValue();
                    hasEnd = true;
                } else {
                    p.skipChildren();
                }
            }
        }

        RecordScan build() {
            return new RecordScan(latencies.values(), Arrays.copyOf(starts, nSpans), Arrays.copyOf(ends, nSpans),
                    ttfts.values(), itls.values());
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
