package io.aiperf.engine.convergence;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.aiperf.engine.gate.RequestSamples;
import io.aiperf.engine.summary.CellSummary;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The trials of one configuration (a run's repeated trials, or one capacity search point's) as a
 * {@link ConvergenceSpec} sees them: after each trial, whether it converged, and the record of it for the run's
 * files. Not thread-safe.
 */
public final class TrialSeries {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final ConvergenceSpec spec;
    private final double confidence;
    private final int maxRuns;
    private final List<Double> values = new ArrayList<>();
    private final List<double[]> requests = new ArrayList<>();
    private final List<String> dirs = new ArrayList<>();
    private final List<Double> reached = new ArrayList<>();
    private ConvergenceState state;

    public TrialSeries(final ConvergenceSpec spec, final double confidence, final int maxRuns) {
        this.spec = spec;
        this.confidence = confidence;
        this.maxRuns = maxRuns;
    }

    /**
     * Adds a trial and judges them all.
     *
     * @param summary the trial's summary, as its cell returned it, or null when it wrote none (no value)
     * @param records its per-request records (read in distribution mode only)
     */
    public ConvergenceState add(final String artifactDir, final CellSummary summary, final Path records) {
        values.add(summary == null ? Double.NaN : summary.stat(spec.metric(), spec.stat()));
        double[] r = new double[0];
        if (spec.mode().equals(ConvergenceSpec.DISTRIBUTION) && summary != null) {
            final RequestSamples samples = RequestSamples.read(records, summary.warmup() != null);
            r = samples == null ? r : samples.values(spec.metric());
        }
        requests.add(r);
        dirs.add(artifactDir);
        state = ConvergenceCheck.check(spec, values, requests, confidence, maxRuns);
        reached.add(state.reached());
        return state;
    }

    /** After the last trial added, or null before any. */
    public ConvergenceState state() {
        return state;
    }

    /** What {@code convergence.json} (and a search point's {@code convergence}) records. */
    public ObjectNode json() {
        final ObjectNode o = JSON.createObjectNode();
        o.put("metric", spec.metric()).put("stat", spec.stat()).put("mode", spec.mode())
                .put("threshold", spec.threshold()).put("min_runs", spec.minRuns(maxRuns)).put("max_runs", maxRuns)
                .put("confidence_level", confidence).put("trials_run", values.size())
                .put("converged", state != null && state.converged());
        number(o, "reached", state == null ? Double.NaN : state.reached());
        o.put("detail", state == null ? "no trial ran" : state.detail());
        final ArrayNode trials = o.putArray("trials");
        for (int i = 0; i < values.size(); i++) {
            final ObjectNode t = trials.addObject().put("trial", i + 1).put("artifact_dir", dirs.get(i));
            number(t, "value", values.get(i));
            number(t, "reached", reached.get(i));
        }
        return o;
    }

    private static void number(final ObjectNode o, final String key, final double v) {
        if (Double.isFinite(v)) {
            o.put(key, v);
        } else {
            o.putNull(key);
        }
    }
}
