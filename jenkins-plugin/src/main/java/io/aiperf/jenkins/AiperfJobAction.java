package io.aiperf.jenkins;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.Extension;
import hudson.model.Action;
import hudson.model.Item;
import hudson.model.Job;
import hudson.model.Run;
import io.aiperf.engine.ci.CallFolders;
import io.aiperf.engine.ci.HistoryLimits;
import io.aiperf.engine.ci.TrendChart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import jenkins.model.TransientActionFactory;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.StaplerResponse2;

/**
 * The job's trends of key metrics, one per call id, over its last builds (at most
 * {@link HistoryLimits#trendBuilds()} builds are looked at). The engine draws each as a plain SVG whose points link
 * to their builds; the job page embeds it as an object, so it needs no JavaScript and works under Jenkins' default
 * Content-Security-Policy.
 */
public final class AiperfJobAction implements Action {
    private final Job<?, ?> job;

    AiperfJobAction(final Job<?, ?> job) {
        this.job = job;
    }

    /**
     * Adds the trend to a job whose last few builds recorded a call, whatever their result. Jenkins' own route for
     * build steps follows the last successful build only, which would hide the trend of a job whose gate failed in
     * each of them: the job that most needs it.
     */
    @Extension
    @SuppressWarnings("rawtypes")
    public static final class Factory extends TransientActionFactory<Job> {
        /** Builds looked at: enough to span a few failed or aborted ones, few enough for every job page. */
        private static final int LOOK_BACK = 5;

        @Override
        public Class<Job> type() {
            return Job.class;
        }

        /** Only lookups of this action (or of all actions, as the job page does) run this factory, not every one. */
        @Override
        public Class<AiperfJobAction> actionType() {
            return AiperfJobAction.class;
        }

        @NonNull
        @Override
        public Collection<? extends Action> createFor(@NonNull final Job target) {
            int seen = 0;
            for (Run<?, ?> b = target.getLastBuild(); b != null && seen < LOOK_BACK; b = b.getPreviousBuild()) {
                if (b.getAction(AiperfBuildAction.class) != null) {
                    return List.of(new AiperfJobAction((Job<?, ?>) target));
                }
                seen++;
            }
            return List.of();
        }
    }

    /** The history limits, from the controller's system properties. */
    static HistoryLimits limits() {
        return HistoryLimits.of(System.getProperty(HistoryLimits.TREND_PROPERTY),
                System.getProperty(HistoryLimits.BASELINE_PROPERTY));
    }

    public Job<?, ?> getJob() {
        return job;
    }

    /** The ids with a trend to draw (two builds to draw a line between), in the order the last build ran them. */
    public List<String> getIds() {
        final List<String> out = new ArrayList<>();
        final Run<?, ?> last = job.getLastBuild();
        final AiperfBuildAction action = last == null ? null : lastAction();
        if (action != null) {
            action.getIds().stream().filter(id -> points(id, "/").size() >= 2).forEach(out::add);
        }
        return out;
    }

    /** Whether there is any trend to show. */
    public boolean isTrendVisible() {
        return !getIds().isEmpty();
    }

    /** {@code <job>/aiperf-trend/trend?id=<id>}: the SVG of one id ({@code aiperf} when none is given). */
    public void doTrend(final StaplerRequest2 req, final StaplerResponse2 rsp, @QueryParameter final String id)
            throws IOException {
        job.checkPermission(Item.READ);
        final String which = id == null || id.isBlank() || CallFolders.idProblem(id) != null ? CallFolders.DEFAULT_ID
                : id.trim();
        final byte[] svg = TrendChart.svgOfBuilds(points(which, req.getContextPath() + "/"))
                .getBytes(StandardCharsets.UTF_8);
        rsp.setContentType("image/svg+xml;charset=UTF-8");
        rsp.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
        rsp.getOutputStream().write(svg);
    }

    private AiperfBuildAction lastAction() {
        int seen = 0;
        for (Run<?, ?> b = job.getLastBuild(); b != null && seen < limits().trendBuilds(); b = b.getPreviousBuild()) {
            final AiperfBuildAction action = b.getAction(AiperfBuildAction.class);
            if (action != null && !action.getCalls().isEmpty()) {
                return action;
            }
            seen++;
        }
        return null;
    }

    /** @param root the context path, so the points link to their builds' AIPerf pages */
    private List<TrendChart.Build> points(final String id, final String root) {
        final List<TrendChart.Build> points = new ArrayList<>();
        int seen = 0;
        for (Run<?, ?> b = job.getLastBuild(); b != null && seen < limits().trendBuilds(); b = b.getPreviousBuild()) {
            seen++;
            final AiperfBuildAction action = b.getAction(AiperfBuildAction.class);
            if (action != null && !action.getTrendPoints(id).isEmpty()) { // one series per sweep point
                points.add(new TrendChart.Build("#" + b.getNumber(), action.getTrendPoints(id),
                        root + b.getUrl() + "aiperf/"));
            }
        }
        Collections.reverse(points);
        return points;
    }

    @Override
    public String getIconFileName() {
        return null; // shown as a box on the job page, not in the side panel
    }

    @Override
    public String getDisplayName() {
        return "AIPerf trend";
    }

    @Override
    public String getUrlName() {
        return "aiperf-trend";
    }
}
