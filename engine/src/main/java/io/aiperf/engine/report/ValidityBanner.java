package io.aiperf.engine.report;

import io.aiperf.engine.summary.CellSummary.ValidityCheck;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The banner at the top of a report: whether the runs can be trusted (src-docs/validity.md). Its colour and first
 * words are the worst validity result of any cell (valid, warn, invalid); below, one line per check that fired, per
 * run: in how many cells, the worst cell's words and what to do. It reads the checks each cell's summary was written
 * with and judges nothing again. Drawn with HTML presentation attributes (a table cell's background, a font colour),
 * which a Content-Security-Policy without {@code 'unsafe-inline'} still applies. Stateless.
 */
final class ValidityBanner {
    static final String VALID = "valid";
    static final String WARN = "warn";
    static final String INVALID = "invalid";

    private ValidityBanner() {
    }

    /** One check that fired in some cells of one run. */
    private record Fired(String run, String check, List<ValidityCheck> seen, List<String> cells, int judged) {
        ValidityCheck worst() {
            return seen.stream().filter(c -> INVALID.equals(c.result())).findFirst().orElse(seen.get(0));
        }

        String cellOfWorst() {
            return cells.get(seen.indexOf(worst()));
        }
    }

    /** The worst validity result of the report's cells: valid, warn or invalid; null when no cell recorded one. */
    static String result(final ReportData data) {
        boolean judged = false;
        String worst = VALID;
        for (final ReportData.Cell c : data.cells()) {
            if (c.summary() == null || c.summary().validityChecks().isEmpty()) {
                continue;
            }
            judged = true;
            for (final ValidityCheck k : c.summary().validityChecks()) {
                if (INVALID.equals(k.result()) || WARN.equals(k.result()) && VALID.equals(worst)) {
                    worst = k.result();
                }
            }
        }
        return judged ? worst : null;
    }

    static void append(final StringBuilder page, final ReportData data) {
        final String result = result(data);
        final List<Fired> fired = fired(data);
        final String colour = result == null ? Palette.NEUTRAL : switch (result) {
            case INVALID -> Palette.BAD;
            case WARN -> Palette.WARN;
            default -> Palette.GOOD;
        };
        page.append("<table id=\"validity\" class=\"banner validity-").append(result == null ? "unknown" : result)
                .append("\" width=\"100%\" cellpadding=\"12\" cellspacing=\"0\" border=\"0\" bgcolor=\"")
                .append(colour).append("\"><tr><td><font color=\"#ffffff\">\n<b>");
        final int cells = data.cells().size();
        if (result == null) {
            page.append("Validity not recorded</b>: the cells' summaries hold no validity checks (written by upstream "
                    + "AIPerf or an older engine), so nothing here says whether the client delivered the load.");
        } else if (VALID.equals(result)) {
            page.append("Valid</b>: every validity check passed in ").append(cells == 1 ? "the cell" : "all "
                    + cells + " cells").append(": the client delivered the load and enough requests succeeded.");
        } else {
            page.append(INVALID.equals(result) ? "Invalid" : "Warning").append("</b>: ")
                    .append(INVALID.equals(result) ? "these numbers measure the failures or the client, not the "
                            + "server; do not compare them until the check below passes."
                            : "the numbers hold, with the caveats below.");
            page.append("\n<ul class=\"validity-checks\">\n");
            for (final String level : List.of(INVALID, WARN)) {
                for (final Fired f : fired) {
                    final ValidityCheck w = f.worst();
                    if (!level.equals(w.result())) {
                        continue;
                    }
                    page.append("<li><b>").append(Html.escape(f.check())).append("</b> ").append(level).append(" (")
                            .append(data.comparison() ? Html.escape(f.run()) + ", " : "")
                            .append(f.seen().size() == 1 && f.judged() == 1 ? "the cell"
                                    : f.seen().size() + " of " + f.judged() + " cells").append("): ")
                            .append(Html.escape(w.message())).append(f.judged() > 1 ? " (cell "
                                    + Html.escape(f.cellOfWorst()) + ")" : "").append(". ");
                    if (w.fix() != null && !w.fix().isBlank()) {
                        page.append("<i>What to do:</i> ").append(Html.escape(w.fix())).append('.');
                    }
                    page.append("</li>\n");
                }
            }
            page.append("</ul>\n");
        }
        page.append("</font></td></tr></table>\n");
    }

    /** Per run, each check that was not ok in some cell, in the order the checks first appear. */
    private static List<Fired> fired(final ReportData data) {
        final List<Fired> out = new ArrayList<>();
        for (final ReportData.Run run : data.runs()) {
            final Map<String, Fired> byCheck = new LinkedHashMap<>();
            final int judged = (int) run.cells().stream()
                    .filter(c -> c.summary() != null && !c.summary().validityChecks().isEmpty()).count();
            for (final ReportData.Cell c : run.cells()) {
                if (c.summary() == null) {
                    continue;
                }
                for (final ValidityCheck k : c.summary().validityChecks()) {
                    if (WARN.equals(k.result()) || INVALID.equals(k.result())) {
                        final Fired f = byCheck.computeIfAbsent(k.name(),
                                n -> new Fired(run.name(), n, new ArrayList<>(), new ArrayList<>(), judged));
                        f.seen().add(k);
                        f.cells().add(c.label());
                    }
                }
            }
            out.addAll(byCheck.values());
        }
        return out;
    }
}
