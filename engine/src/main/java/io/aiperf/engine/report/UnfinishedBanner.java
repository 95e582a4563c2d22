package io.aiperf.engine.report;

import io.aiperf.engine.gate.UnfinishedRuns;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The banner of a report whose run did not finish: still writing, or killed (its lock file is still in its folder,
 * as the gate reads it). Such a run's cells are whatever it got to, so the report says so first, in red, and never
 * reads as a complete run. Stateless.
 */
public final class UnfinishedBanner {
    private UnfinishedBanner() {
    }

    /** The unfinished runs among the report's folders, each said once. */
    public static List<UnfinishedRuns.Unfinished> of(final List<Path> dirs) {
        return dirs.stream().map(UnfinishedRuns::find).filter(Objects::nonNull).distinct().toList();
    }

    /** One line for the console or the page: what the run is and what to do. */
    public static String line(final UnfinishedRuns.Unfinished u) {
        return "unfinished run: " + u.describe() + ", not a complete run; " + u.advice("report");
    }

    static void append(final StringBuilder page, final ReportData data) {
        final List<UnfinishedRuns.Unfinished> unfinished = of(data.runs().stream()
                .flatMap(r -> r.dirs().stream()).toList());
        if (unfinished.isEmpty()) {
            return;
        }
        page.append("<table id=\"unfinished\" class=\"banner unfinished\" width=\"100%\" cellpadding=\"12\" "
                + "cellspacing=\"0\" border=\"0\" bgcolor=\"").append(Palette.BAD)
                .append("\"><tr><td><font color=\"#ffffff\">\n<b>Unfinished</b>: ");
        for (final UnfinishedRuns.Unfinished u : unfinished) {
            page.append(Html.escape(line(u))).append(". ");
        }
        page.append("\n</font></td></tr></table>\n");
    }
}
