package io.aiperf.engine.config;

import java.util.List;
import java.util.Locale;

/**
 * Binds a fixed schedule's window ({@code auto_offset}, {@code start_offset}, {@code end_offset}) over the timestamps
 * of a trace, and refuses a window that replays no row or would wait for days.
 */
final class FixedScheduleBinder {
    /** The longest a replay may wait before its first request, or last: beyond it the timestamps are not ms. */
    static final long MAX_SCHEDULE_WAIT_MS = 3_600_000L;
    static final long MAX_SCHEDULE_SPAN_MS = 7L * 24 * 3_600_000L;

    private FixedScheduleBinder() {
    }

    /** A fixed schedule's window over the trace's timestamps; null for any other load. */
    static PhaseConfig.Schedule bind(final Section s, final LoadType type, final DatasetConfig.InputFile fileDataset) {
        if (type != LoadType.FIXED_SCHEDULE) {
            if (s.has("auto_offset") || s.has("start_offset") || s.has("end_offset")) {
                throw s.error(s.has("auto_offset") ? "auto_offset" : s.has("start_offset") ? "start_offset"
                        : "end_offset", "--fixed-schedule-* can only be used with --fixed-schedule");
            }
            return null;
        }
        if (fileDataset == null || !fileDataset.timestamped()) {
            throw s.error("type", "--fixed-schedule needs a dataset whose rows carry timestamps (--input-file)");
        }
        final Long start = s.longValue("start_offset");
        final Long end = s.longValue("end_offset");
        if ((start != null && start < 0) || (end != null && end < 0)) {
            throw s.error(start != null && start < 0 ? "start_offset" : "end_offset",
                    "Input should be greater than or equal to 0");
        }
        if (start != null && end != null && end < start) {
            throw s.error("end_offset", "must not be before start_offset");
        }
        return new PhaseConfig.Schedule(s.bool("auto_offset", false), start, end);
    }

    /** The rows of the trace the window replays, each once; at least one. */
    static int rows(final Section s, final PhaseConfig.Schedule schedule, final DatasetConfig.InputFile fileDataset) {
        final long rows = fileDataset.timestampsMs().stream().filter(t -> t != null && schedule.includes(t)).count();
        if (rows == 0) {
            throw s.error("start_offset", "no row of the trace falls between the schedule's offsets");
        }
        plausibleSchedule(s, schedule, fileDataset.timestampsMs());
        return (int) rows;
    }

    /**
     * Refuses a trace whose schedule would wait silently for years: timestamps that look like epoch milliseconds
     * (the first replayed one far from time zero), or a gap of days between rows.
     */
    private static void plausibleSchedule(final Section s, final PhaseConfig.Schedule window, final List<Long> timestamps) {
        final long first = timestamps.stream().filter(t -> t != null && window.includes(t)).mapToLong(Long::longValue)
                .min().orElse(0);
        final long last = timestamps.stream().filter(t -> t != null && window.includes(t)).mapToLong(Long::longValue)
                .max().orElse(0);
        final long wait = first - window.zero(first);
        if (wait > MAX_SCHEDULE_WAIT_MS) {
            throw s.error("auto_offset", String.format(Locale.ROOT, "the trace's first timestamp is %d ms, so the "
                    + "first request would wait %.1f days%s; add --fixed-schedule-auto-offset (auto_offset: true) to "
                    + "start at the first row, or make the timestamps milliseconds from the start", first,
                    wait / 86_400_000.0, first > 1_000_000_000_000L ? " (it looks like epoch milliseconds)" : ""));
        }
        if (last - first > MAX_SCHEDULE_SPAN_MS) {
            throw s.error("end_offset", String.format(Locale.ROOT, "the trace spans %.1f days (timestamps %d to %d "
                    + "ms), longer than the 7-day limit; check that they are milliseconds, or replay a window with "
                    + "--fixed-schedule-start-offset / --fixed-schedule-end-offset", (last - first) / 86_400_000.0,
                    first, last));
        }
    }
}
