package io.aiperf.jenkins;

import hudson.AbortException;
import hudson.FilePath;
import hudson.model.Item;
import hudson.model.Job;
import hudson.model.Result;
import hudson.model.Run;
import io.aiperf.engine.ci.ArchivePlanner;
import io.aiperf.engine.ci.BaselineChoice;
import io.aiperf.engine.ci.BaselineSelector;
import io.aiperf.engine.ci.Verdict;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import jenkins.model.Jenkins;
import org.springframework.security.access.AccessDeniedException;

/**
 * Baselines from earlier builds of the same job, or of a reference job (a pull request's target branch): their
 * archived summaries under the same archive folder (so the same call id), chosen by {@link BaselineSelector},
 * copied to the agent for the engine's gate. The search looks back at most {@link io.aiperf.engine.ci.HistoryLimits#baselineBuilds()} builds; a build number is looked up
 * directly. No match is no baseline: relative rules are then inactive, so the first build of a job passes them.
 */
final class Baselines {
    private Baselines() {
    }

    /**
     * The chosen baselines.
     *
     * @param dirs the agent directories holding their summaries, newest first, for the engine's gate
     * @param builds their build numbers
     * @param metrics the key metrics they recorded under the same archive folder, for the build page's comparison
     * @param job the full name of the reference job they belong to, or null when they are the build's own job's
     */
    record Chosen(List<String> dirs, List<Integer> builds, List<Map<String, Double>> metrics, String job) {
        static final Chosen NONE = new Chosen(List.of(), List.of(), List.of(), null);
    }

    /**
     * @param referenceJob the job whose builds to look at ({@link #referenceJob}), or null for the build's own job
     * @return the chosen baselines, newest first; {@link Chosen#NONE} without a gate or a matching build
     */
    static Chosen fetch(final EngineRun engine, final String prefix, final String gate, final String baseline,
                        final String referenceJob) throws IOException, InterruptedException {
        if (gate == null || gate.isBlank()) {
            if (referenceJob != null) {
                throw new AbortException("aiperf: referenceJob: a reference job is only used with a gate rules file");
            }
            return Chosen.NONE;
        }
        final Run<?, ?> run = engine.run();
        final Job<?, ?> job = referenceJob == null ? run.getParent() : referenceJob(run, referenceJob);
        final boolean own = job == run.getParent();
        final BaselineChoice choice = BaselineChoice.parse(baseline);
        final List<BaselineSelector.Build> history = new ArrayList<>();
        final Map<String, Run<?, ?>> byNumber = new HashMap<>();
        if (choice.policy() == BaselineSelector.Policy.BUILD_NUMBER) {
            final Run<?, ?> b = job.getBuildByNumber(choice.argument());
            if (b != null && (!own || b.getNumber() < run.getNumber())) {
                add(engine, b, prefix, history, byNumber);
            }
        } else {
            int depth = AiperfJobAction.limits().baselineBuilds();
            for (Run<?, ?> b = own ? run.getPreviousBuild() : job.getLastBuild(); b != null && depth-- > 0;
                    b = b.getPreviousBuild()) {
                add(engine, b, prefix, history, byNumber);
            }
        }
        final List<String> chosen = BaselineSelector.select(history, choice);
        final String where = own ? "build" : job.getFullName();
        if (chosen.isEmpty()) {
            engine.listener().getLogger().println("aiperf: no baseline " + where + " matches '" + choice.policy()
                    + "' with archived results under " + prefix + "; relative gate rules are inactive");
            return Chosen.NONE;
        }
        final List<String> dirs = new ArrayList<>();
        final List<Integer> builds = new ArrayList<>();
        final List<Map<String, Double>> metrics = new ArrayList<>();
        for (final String key : chosen) {
            final Run<?, ?> b = byNumber.get(key);
            final FilePath target = engine.scratch().child("baseline-" + key);
            ArchivedFiles.copy(b, prefix, ArchivePlanner.BASELINE_INCLUDES, target);
            engine.listener().getLogger().println("aiperf: baseline: " + where + " #" + key);
            dirs.add(target.getRemote());
            builds.add(b.getNumber());
            final AiperfBuildAction action = b.getAction(AiperfBuildAction.class);
            final CallSummary summary = action == null ? null : action.getCalls().get(prefix);
            if (summary != null) {
                metrics.add(summary.getMetrics());
            }
        }
        return new Chosen(List.copyOf(dirs), List.copyOf(builds), List.copyOf(metrics), own ? null : job.getFullName());
    }

    /**
     * The reference job as the build's authentication sees it (the step's thread runs under it): a full name, or a
     * name relative to the folder of the build's job, such as a multibranch project's target branch; it must be
     * readable ({@link Item#READ}), so a build never reads what its own user may not.
     *
     * @throws AbortException naming the job when there is no such job or it may not be read
     */
    static Job<?, ?> referenceJob(final Run<?, ?> run, final String name) throws AbortException {
        Job<?, ?> job;
        try {
            job = Jenkins.get().getItem(name, run.getParent(), Job.class);
        } catch (AccessDeniedException denied) {
            job = null;
        }
        if (job == null || !job.hasPermission(Item.READ)) {
            throw new AbortException("aiperf: referenceJob: no job '" + name + "' that this build may read (a full"
                    + " name, or a name relative to the folder of " + run.getParent().getFullName() + ")");
        }
        return job;
    }

    private static void add(final EngineRun engine, final Run<?, ?> b, final String prefix,
                            final List<BaselineSelector.Build> history, final Map<String, Run<?, ?>> byNumber) {
        final Result result = b.getResult();
        if (result == null) {
            return; // still running
        }
        final String key = Integer.toString(b.getNumber());
        boolean hasSummaries;
        try {
            hasSummaries = !ArchivedFiles.list(b, prefix, ArchivePlanner.BASELINE_INCLUDES).isEmpty();
        } catch (IOException unreadable) {
            // an artifact store that cannot list an old build makes it no baseline, never a failed build
            engine.listener().getLogger().println("aiperf: the artifacts of build #" + key + " cannot be read ("
                    + unreadable.getMessage() + "); it is not used as a baseline");
            hasSummaries = false;
        }
        history.add(new BaselineSelector.Build(b.getNumber(), verdict(result), hasSummaries ? key : null));
        byNumber.put(key, b);
    }

    private static Verdict verdict(final Result result) {
        if (result == Result.SUCCESS) {
            return Verdict.SUCCESS;
        }
        if (result == Result.UNSTABLE) {
            return Verdict.UNSTABLE;
        }
        return result == Result.ABORTED ? Verdict.ABORTED : Verdict.FAILURE;
    }
}
