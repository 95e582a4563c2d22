package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * A piecewise-linear request rate (upstream AIPerf's {@code --request-rate-series}: a JSON file
 * {@code {"points": [{"time_s": 0, "qps": 1}, {"time_s": 60, "qps": 7}, ...]}}): the rate goes linearly from one
 * point to the next, holds the first point's rate before it and the last point's after it (src-docs/cli.md,
 * "Rate series").
 *
 * @param timesSeconds the points' times, strictly increasing, the first at 0 or later
 * @param qps the points' rates, not negative
 */
public record RateSeries(double[] timesSeconds, double[] qps) {
    /** Reads the {@code points} of a series, naming {@code field} in any error. */
    public static RateSeries parse(final JsonNode node, final String field) {
        final JsonNode points = node == null ? null : node.isArray() ? node : node.get("points");
        if (points == null || !points.isArray() || points.isEmpty()) {
            throw new ConfigException(field, "expected {\"points\": [{\"time_s\": 0, \"qps\": 5}, ...]} with at "
                    + "least one point");
        }
        final List<double[]> out = new ArrayList<>();
        for (final JsonNode p : points) {
            if (!p.path("time_s").isNumber() || !p.path("qps").isNumber()) {
                throw new ConfigException(field, "each point needs numbers time_s and qps, got " + p);
            }
            final double t = p.path("time_s").asDouble();
            final double q = p.path("qps").asDouble();
            if (!(t >= 0) || Double.isInfinite(t) || !(q >= 0) || Double.isInfinite(q)) {
                throw new ConfigException(field, "time_s and qps must be finite and not negative, got " + p);
            }
            if (!out.isEmpty() && t <= out.get(out.size() - 1)[0]) {
                throw new ConfigException(field, "time_s must increase from point to point, got " + t + " after "
                        + out.get(out.size() - 1)[0]);
            }
            out.add(new double[] {t, q});
        }
        if (!(out.get(out.size() - 1)[1] > 0)) {
            throw new ConfigException(field, "the last point's qps must be above 0: the rate holds it to the end");
        }
        final double[] times = new double[out.size()];
        final double[] rates = new double[out.size()];
        for (int i = 0; i < times.length; i++) {
            times[i] = out.get(i)[0];
            rates[i] = out.get(i)[1];
        }
        return new RateSeries(times, rates);
    }

    /** The rate at {@code t} seconds into the phase. */
    public double rateAt(final double t) {
        if (t <= timesSeconds[0]) {
            return qps[0];
        }
        for (int i = 1; i < timesSeconds.length; i++) {
            if (t <= timesSeconds[i]) {
                final double f = (t - timesSeconds[i - 1]) / (timesSeconds[i] - timesSeconds[i - 1]);
                return qps[i - 1] + f * (qps[i] - qps[i - 1]);
            }
        }
        return qps[qps.length - 1];
    }

    /** The expected arrivals from 0 to {@code t} seconds: the integral of the rate. */
    public double arrivalsBy(final double t) {
        double sum = qps[0] * Math.min(t, timesSeconds[0]);
        for (int i = 1; i < timesSeconds.length && t > timesSeconds[i - 1]; i++) {
            final double end = Math.min(t, timesSeconds[i]);
            sum += (end - timesSeconds[i - 1]) * (qps[i - 1] + rateAt(end)) / 2;
        }
        final double last = timesSeconds[timesSeconds.length - 1];
        return t > last ? sum + (t - last) * qps[qps.length - 1] : sum;
    }

    /** The time (seconds) at which {@code arrivalsBy} reaches {@code n}: the inverse, by bisection. */
    public double timeOf(final double n) {
        double lo = 0;
        double hi = Math.max(1, timesSeconds[timesSeconds.length - 1]);
        while (arrivalsBy(hi) < n) {
            hi *= 2;
        }
        for (int i = 0; i < 100 && hi - lo > 1e-10; i++) {
            final double mid = (lo + hi) / 2;
            if (arrivalsBy(mid) < n) {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        return hi;
    }

    /** The highest rate of the series. */
    public double peak() {
        double max = 0;
        for (final double q : qps) {
            max = Math.max(max, q);
        }
        return max;
    }

    /** The same series at {@code factor} times the rate (a shard's share). */
    public RateSeries scaled(final double factor) {
        final double[] q = qps.clone();
        for (int i = 0; i < q.length; i++) {
            q[i] *= factor;
        }
        return new RateSeries(timesSeconds.clone(), q);
    }
}
