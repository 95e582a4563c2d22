package io.aiperf.jenkins;

import hudson.model.Action;
import hudson.model.Run;
import io.aiperf.engine.ci.StepSummary;
import io.aiperf.engine.ci.Verdict;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jenkins.model.RunAction2;
import jenkins.tasks.SimpleBuildStep;

/**
 * The build page's "AIPerf" summary: one entry per aiperf call of the build (keyed by its archive folder, so
 * stages and parallel branches coexist), each the step's small summary (verdict, cells, hooks, key metrics,
 * gate table, archived paths). Large data stays in the archived artifacts. Contributes the job's trend.
 */
public final class AiperfBuildAction implements RunAction2, SimpleBuildStep.LastBuildAction, Serializable {
    private static final long serialVersionUID = 1L;
    private static final Object LOCK = new Object();

    private final LinkedHashMap<String, LinkedHashMap<String, Object>> calls = new LinkedHashMap<>();
    private transient Run<?, ?> run;

    /** Adds or replaces the summary of one call on the build. */
    static void record(final Run<?, ?> run, final String prefix, final LinkedHashMap<String, Object> summary) {
        synchronized (LOCK) {
            AiperfBuildAction action = run.getAction(AiperfBuildAction.class);
            if (action == null) {
                action = new AiperfBuildAction();
                run.addAction(action);
            }
            action.calls.put(prefix, summary);
        }
    }

    @Override
    public void onAttached(final Run<?, ?> r) {
        this.run = r;
    }

    @Override
    public void onLoad(final Run<?, ?> r) {
        this.run = r;
    }

    public Run<?, ?> getRun() {
        return run;
    }

    /** Each call's summary, by archive folder, in the order they ran. */
    public Map<String, LinkedHashMap<String, Object>> getCalls() {
        synchronized (LOCK) {
            return new LinkedHashMap<>(calls);
        }
    }

    /** The key metrics this build adds to the job's trend. */
    public Map<String, Double> getTrendMetrics() {
        return StepSummary.trendMetrics(getCalls());
    }

    /** The worst verdict over the calls, for the page heading. */
    public String getVerdict() {
        return Verdict.worst(getCalls().values().stream().map(c -> String.valueOf(c.get(StepSummary.VERDICT))).toList())
                .name();
    }

    @Override
    public String getIconFileName() {
        return "symbol-speedometer-outline plugin-ionicons-api";
    }

    @Override
    public String getDisplayName() {
        return "AIPerf";
    }

    @Override
    public String getUrlName() {
        return "aiperf";
    }

    @Override
    public Collection<? extends Action> getProjectActions() {
        final List<Action> out = new ArrayList<>();
        if (run != null) {
            out.add(new AiperfJobAction(run.getParent()));
        }
        return out;
    }
}
