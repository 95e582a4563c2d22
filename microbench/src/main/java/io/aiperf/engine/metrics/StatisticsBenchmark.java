package io.aiperf.engine.metrics;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The exact statistics of one metric: adding a run's values and computing avg, std and AIPerf's percentiles from
 * them, for runs of 10,000 and 1,000,000 requests. Scored per run (divide by {@code values} for the cost per value).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class StatisticsBenchmark {
    @Param({"10000", "1000000"})
    public int values;

    private double[] latencies;

    @Setup
    public void setUp() {
        final SplittableRandom random = new SplittableRandom(7);
        latencies = new double[values];
        for (int i = 0; i < values; i++) {
            latencies[i] = 20e6 + random.nextGaussian() * 4e6; // TTFT-like nanoseconds
        }
    }

    @Benchmark
    public Stats addAndSummarize() {
        try (Distribution d = new Distribution()) {
            for (final double v : latencies) {
                d.add(v);
            }
            return d.stats();
        }
    }
}
