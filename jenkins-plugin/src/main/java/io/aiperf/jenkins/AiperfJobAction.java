package io.aiperf.jenkins;

import hudson.model.Action;
import hudson.model.Item;
import hudson.model.Job;
import hudson.model.Run;
import io.aiperf.engine.ci.TrendChart;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.StaplerResponse2;

/**
 * The job's trend of key metrics over its last builds. The engine draws it as a plain SVG, served as an image,
 * so the page needs no JavaScript and works under Jenkins' default Content-Security-Policy.
 */
public final class AiperfJobAction implements Action {
    /** How many builds the trend shows. */
    static final int BUILDS = 30;
    private final Job<?, ?> job;

    AiperfJobAction(final Job<?, ?> job) {
        this.job = job;
    }

    public Job<?, ?> getJob() {
        return job;
    }

    /** Whether there are two builds to draw a line between. */
    public boolean isTrendVisible() {
        return points().size() >= 2;
    }

    /** {@code <job>/aiperf-trend/trend}: the SVG. */
    public void doTrend(final StaplerRequest2 req, final StaplerResponse2 rsp) throws IOException {
        job.checkPermission(Item.READ);
        final byte[] svg = TrendChart.svg(points()).getBytes(StandardCharsets.UTF_8);
        rsp.setContentType("image/svg+xml;charset=UTF-8");
        rsp.setHeader("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'");
        rsp.getOutputStream().write(svg);
    }

    private List<TrendChart.Point> points() {
        final List<TrendChart.Point> points = new ArrayList<>();
        int seen = 0;
        for (Run<?, ?> b = job.getLastBuild(); b != null && seen < BUILDS; b = b.getPreviousBuild()) {
            final AiperfBuildAction action = b.getAction(AiperfBuildAction.class);
            if (action != null && !action.getTrendMetrics().isEmpty()) {
                points.add(new TrendChart.Point("#" + b.getNumber(), action.getTrendMetrics()));
                seen++;
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
