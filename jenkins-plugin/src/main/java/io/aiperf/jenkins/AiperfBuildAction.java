package io.aiperf.jenkins;

import hudson.model.HealthReport;
import hudson.model.HealthReportingAction;
import hudson.model.Item;
import hudson.model.Job;
import hudson.model.Run;
import io.aiperf.engine.ci.BuildHealth;
import io.aiperf.engine.ci.CallFolders;
import io.aiperf.engine.ci.Comparison;
import io.aiperf.engine.ci.ReportCharts;
import io.aiperf.engine.ci.StepSummary;
import io.aiperf.engine.ci.Verdict;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import jenkins.model.Jenkins;
import jenkins.model.RunAction2;
import jenkins.util.VirtualFile;
import org.kohsuke.stapler.QueryParameter;
import org.kohsuke.stapler.StaplerRequest2;
import org.kohsuke.stapler.StaplerResponse2;
import org.kohsuke.stapler.export.Exported;
import org.kohsuke.stapler.export.ExportedBean;

/**
 * The build page's "AIPerf" summary: one entry per aiperf call of the build, keyed by its archive folder
 * ({@link CallFolders#prefix}: its id and slot), each the step's small summary, typed ({@link CallSummary}: verdict,
 * cells, hooks, key metrics, gate table, archived paths). Large data stays in the archived artifacts. Also served by {@code api/json},
 * feeds the job's trend ({@link AiperfJobAction.Factory}), and reports the job's health from the last builds' verdicts.
 */
@ExportedBean
public final class AiperfBuildAction implements RunAction2, HealthReportingAction,
        Serializable {
    private static final long serialVersionUID = 1L;
    private static final Object LOCK = new Object();

    /**
     * Replaced whole under the lock, never changed in place, so saving the build while a parallel branch records
     * reads a whole map; volatile because XStream reads it without the lock.
     */
    private volatile LinkedHashMap<String, CallSummary> summaries = new LinkedHashMap<>();
    /** How builds recorded before {@link CallSummary} kept their summaries (the step's maps); read, then dropped. */
    @Deprecated
    private LinkedHashMap<String, LinkedHashMap<String, Object>> calls;
    private transient Run<?, ?> run;

    /**
     * Adds or replaces the summary of one call on the build; the first one adds the action, so a build shows a verdict
     * only once a call recorded one. The record is typed and its own: a script that changes the returned map changes
     * nothing here.
     */
    static void record(final Run<?, ?> run, final String prefix, final Map<String, Object> summary) {
        synchronized (LOCK) {
            AiperfBuildAction action = run.getAction(AiperfBuildAction.class);
            if (action == null) {
                action = new AiperfBuildAction();
                run.addAction(action);
            }
            final LinkedHashMap<String, CallSummary> next = new LinkedHashMap<>(action.summaries);
            next.put(prefix, CallSummary.of(summary));
            action.summaries = next;
        }
    }

    /** A deep copy of a summary's maps and lists (their leaves are immutable: strings, numbers, booleans). */
    @SuppressWarnings("unchecked")
    static <T> T copy(final T value) {
        if (value instanceof Map<?, ?> m) {
            final LinkedHashMap<Object, Object> out = new LinkedHashMap<>();
            m.forEach((k, v) -> out.put(k, copy(v)));
            return (T) out;
        }
        if (value instanceof List<?> l) {
            final ArrayList<Object> out = new ArrayList<>();
            l.forEach(v -> out.add(copy(v)));
            return (T) out;
        }
        return value;
    }

    private Object readResolve() {
        if (summaries == null) {
            summaries = new LinkedHashMap<>();
        }
        if (calls != null) {
            calls.forEach((prefix, summary) -> summaries.put(prefix, CallSummary.of(summary)));
            calls = null;
        }
        return this;
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
    @Exported
    public Map<String, CallSummary> getCalls() {
        synchronized (LOCK) {
            return new LinkedHashMap<>(summaries);
        }
    }

    /** The summaries as the step returned them, for the engine's readers of those maps. */
    private Map<String, LinkedHashMap<String, Object>> asMaps() {
        final Map<String, LinkedHashMap<String, Object>> out = new LinkedHashMap<>();
        getCalls().forEach((prefix, summary) -> out.put(prefix, summary.toMap()));
        return out;
    }

    /** The ids of this build's calls, in the order they ran. */
    @Exported(visibility = 2)
    public List<String> getIds() {
        return StepSummary.ids(getCalls());
    }

    /** The key metrics this build adds to the trend of one id. */
    public Map<String, Double> getTrendMetrics(final String id) {
        return StepSummary.trendMetrics(asMaps(), id);
    }

    /** The key metrics per sweep point this build adds to the trend of one id. */
    public Map<String, Map<String, Double>> getTrendPoints(final String id) {
        return StepSummary.trendPoints(asMaps(), id);
    }

    /**
     * The URL (relative to Jenkins' root) of the job a call's baselines came from: its reference job when the viewer
     * may read it, else this build's job.
     */
    public String jobUrl(final String referenceJob) {
        final Job<?, ?> reference = referenceJob == null ? null
                : Jenkins.get().getItemByFullName(referenceJob, Job.class);
        return reference != null ? reference.getUrl() : run == null ? "" : run.getParent().getUrl();
    }

    /** A measured value as the page shows it: at most three decimals, none when whole; blank when there is none. */
    public String number(final Object value) {
        if (!(value instanceof Number n) || !Double.isFinite(n.doubleValue())) {
            return value == null ? "" : String.valueOf(value);
        }
        return new java.math.BigDecimal(n.doubleValue()).setScale(3, java.math.RoundingMode.HALF_EVEN)
                .stripTrailingZeros().toPlainString();
    }

    /** A change in percent as the page shows it: signed, one decimal. */
    public String percent(final Object value) {
        return value instanceof Number n && Double.isFinite(n.doubleValue())
                ? String.format(java.util.Locale.ROOT, "%+.1f", n.doubleValue()) : value == null ? "" : String.valueOf(value);
    }

    /** The comparison image of one call, relative to this page; encoded, since a '+' in a query is a space. */
    public String compareUrl(final String call) {
        return "compare?call=" + URLEncoder.encode(call, StandardCharsets.UTF_8);
    }

    /** The worst verdict over the calls, for the page heading; null before a call recorded one. */
    @Exported(visibility = 2)
    public String getVerdict() {
        final Map<String, CallSummary> recorded = getCalls();
        return recorded.isEmpty() ? null : Verdict.worst(recorded.values().stream()
                .map(c -> c.getVerdict().name()).toList()).name();
    }

    /**
     * {@code <build>/aiperf/compare?call=<archive folder>}: the engine's SVG of one call against its baseline: the
     * {@code comparison.svg} the engine drew beside {@code report.html} (the report's own charts), read back from the
     * archive; without it (not archived, an older engine) the key metrics' bars. The archived file is served only to
     * those who may read the build's artifacts (Run.ARTIFACTS, when that permission is switched on), and sandboxed as
     * Jenkins serves artifacts: a build step could have written anything into it.
     */
    public void doCompare(final StaplerRequest2 req, final StaplerResponse2 rsp, @QueryParameter final String call)
            throws IOException {
        if (run != null) {
            run.getParent().checkPermission(Item.READ);
        }
        final CallSummary summary = call == null ? null : getCalls().get(call);
        rsp.setContentType("image/svg+xml;charset=UTF-8");
        rsp.setHeader("Content-Security-Policy", "sandbox; default-src 'none'; style-src 'unsafe-inline'");
        rsp.setHeader("X-Content-Type-Options", "nosniff");
        final boolean mayReadArtifacts = run != null && (!Run.ARTIFACTS.enabled || run.hasPermission(Run.ARTIFACTS));
        final VirtualFile drawn = summary == null || !mayReadArtifacts ? null
                : run.getArtifactManager().root().child(call + ReportCharts.FILE);
        if (drawn != null && drawn.isFile()) {
            try (InputStream in = drawn.open()) {
                in.transferTo(rsp.getOutputStream());
            }
            return;
        }
        final List<Map<String, Object>> rows = summary == null ? List.of() : summary.getComparison();
        rsp.getOutputStream().write(Comparison.svg(rows).getBytes(StandardCharsets.UTF_8));
    }

    /** The weather icon: how many of the job's last benchmarked builds (this one first) passed. */
    @Override
    public HealthReport getBuildHealth() {
        if (getCalls().isEmpty()) {
            return null; // a call that failed before it recorded anything says nothing about health
        }
        final List<String> verdicts = new ArrayList<>();
        verdicts.add(getVerdict());
        Run<?, ?> b = run == null ? null : run.getPreviousBuild();
        for (int seen = 0; b != null && seen < AiperfJobAction.limits().trendBuilds()
                && verdicts.size() < BuildHealth.BUILDS; b = b.getPreviousBuild(), seen++) {
            final AiperfBuildAction a = b.getAction(AiperfBuildAction.class);
            if (a != null && !a.getCalls().isEmpty()) {
                verdicts.add(a.getVerdict());
            }
        }
        final BuildHealth health = BuildHealth.of(verdicts);
        // This constructor picks the weather icon from the score (the no-argument one keeps the "unknown" icon); its
        // replacement takes a Localizable, which the plain-text description does not need.
        return deprecatedHealthReport(health.score(), health.description());
    }

    @SuppressWarnings("deprecation")
    private static HealthReport deprecatedHealthReport(final int score, final String description) {
        return new HealthReport(score, description);
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
}
