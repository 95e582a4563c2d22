package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Binds {@code benchmark.phases}: each phase's load, its stop condition and the rules that tie them to the dataset
 * (a trace's schedule, multi-turn users) and the endpoint (prefill needs streaming).
 */
final class PhaseBinder {
    static final List<String> PHASE_KEYS = List.of("name", "kind", "type", "concurrency", "rate", "smoothness",
            "requests", "sessions", "duration", "grace_period", "seamless", "exclude_from_results", "auto_offset",
            "start_offset", "end_offset", "concurrency_ramp_duration", "rate_ramp_duration", "prefill_concurrency",
            "failed_request_threshold", "users", "prefill_concurrency_ramp_duration", "rate_series", "cancellation");
    private static final Pattern PHASE_NAME = Pattern.compile("^[A-Za-z_][A-Za-z0-9_-]*$");
    private static final int DEFAULT_REQUEST_COUNT = 10;
    private final Map<String, String> cliFlags;
    private final DeclaredOptions declared;
    private final List<String> warnings;
    private final DatasetConfig.InputFile fileDataset; // a trace sets the phases' timing and count
    private final boolean fileIsDirectory; // the trace is a directory: a conversation or a pool per file
    private final String samplingTrace; // the sampling field, when one is set for a timestamped trace
    private final boolean multiTurn; // some conversation may have more than one turn
    private final boolean streaming; // the endpoint streams: prefill concurrency needs it

    PhaseBinder(final Map<String, String> cliFlags, final DeclaredOptions declared, final List<String> warnings,
                final DatasetBinder dataset, final boolean streaming) {
        this.cliFlags = cliFlags;
        this.declared = declared;
        this.warnings = warnings;
        this.fileDataset = dataset.fileDataset();
        this.fileIsDirectory = dataset.fileIsDirectory();
        this.samplingTrace = dataset.samplingTrace();
        this.multiTurn = dataset.multiTurn();
        this.streaming = streaming;
    }

    List<PhaseConfig> bind(final Section b) {
        JsonNode node = b.raw("phases");
        if (node == null || node.isNull()) {
            node = b.node().putArray("phases");
        }
        if (!node.isArray()) {
            node = ConfigShapes.phaseList(node);
            b.node().set("phases", node);
        }
        if (node.isEmpty()) {
            final ObjectNode p = ((ArrayNode) node).addObject();
            p.put("name", "profiling");
        }
        final List<PhaseConfig> out = new ArrayList<>();
        final Set<String> seen = new HashSet<>();
        int index = 0;
        for (final JsonNode p : node) {
            if (!p.isObject()) {
                throw new ConfigException("benchmark.phases[" + index + "]", "expected a mapping");
            }
            final String name = p.path("name").asText("");
            if (name.isEmpty()) {
                throw new ConfigException("benchmark.phases[" + index + "].name", "a phase in list form needs a name");
            }
            final Section s = new Section((ObjectNode) p, "benchmark.phases." + name, cliFlags, declared);
            s.allowOnly(PHASE_KEYS);
            if (!PHASE_NAME.matcher(name).matches()) {
                throw s.error("name", "must match ^[A-Za-z_][A-Za-z0-9_-]*$, got '" + name + "'");
            }
            if (!seen.add(name.toLowerCase(Locale.ROOT))) {
                throw s.error("name", "phase names must be unique (case-insensitive): '" + name + "'");
            }
            out.add(phase(s, name, index));
            index++;
        }
        if (out.stream().noneMatch(p -> p.kind() == PhaseKind.PROFILING)) {
            throw new ConfigException("benchmark.phases", "at least one phase of kind profiling is required");
        }
        return List.copyOf(out);
    }

    private PhaseConfig phase(final Section s, final String name, final int index) {
        final PhaseKind kind = kind(s, name);
        final Integer concurrency = s.integer("concurrency", null);
        if (concurrency != null && concurrency < 1) {
            throw s.error("concurrency", "Input should be greater than or equal to 1");
        }
        final RateSeries series = s.has("rate_series") ? RateSeries.parse(s.raw("rate_series"), s.field("rate_series"))
                : null;
        if (series != null && s.has("rate")) {
            throw s.error("rate_series", "give --request-rate or --request-rate-series, not both: the series sets "
                    + "the rate");
        }
        final Double rate = series != null ? Double.valueOf(series.peak()) : s.number("rate", null);
        final Double smoothness = s.number("smoothness", null);
        // A trace whose rows carry timestamps replays on them unless another timing is asked for (AIPerf).
        final boolean replay = kind == PhaseKind.PROFILING && fileDataset != null && fileDataset.timestamped();
        final String typeText = s.string("type", rate != null ? (smoothness != null ? "gamma" : "poisson")
                : replay ? "fixed_schedule" : "concurrency");
        final LoadType type = LoadType.parse(s.field("type"), typeText);
        s.node().put("type", type.wireName());
        final PhaseConfig.Schedule schedule = FixedScheduleBinder.bind(s, type, fileDataset);
        rateAndSmoothness(s, type, rate, smoothness);
        final Stop stop = stopCondition(s, name, kind, type, index, concurrency, schedule);
        if (type == LoadType.CONCURRENCY && concurrency == null) {
            s.node().put("concurrency", 1);
        }
        final Integer width = type == LoadType.CONCURRENCY && concurrency == null ? Integer.valueOf(1) : concurrency;
        final Double shape = type == LoadType.GAMMA && smoothness == null ? Double.valueOf(1.0) : smoothness;
        final Double concurrencyRamp = s.seconds("concurrency_ramp_duration");
        final Double rateRamp = s.seconds("rate_ramp_duration");
        ramps(s, type, width, concurrencyRamp, rateRamp);
        final Integer prefill = prefill(s, width);
        final Double prefillRamp = prefillRamp(s, prefill);
        final Double failedThreshold = s.number("failed_request_threshold", null);
        if (failedThreshold != null && !(failedThreshold >= 0 && failedThreshold <= 1)) {
            throw s.error("failed_request_threshold", "Input should be a ratio between 0 and 1");
        }
        final Integer users = users(s, name, type, stop.requests(), width);
        if (series != null && (!type.needsRate() || rateRamp != null)) {
            throw s.error("rate_series", rateRamp != null ? "the series is the ramp: remove --request-rate-ramp-"
                    + "duration" : "needs an open-loop arrival pattern (constant, poisson or gamma), not "
                    + type.wireName());
        }
        return new PhaseConfig(name, kind, type, width, rate, shape, stop.requests(), stop.sessions(), stop.duration(),
                stop.grace(), stop.seamless(), schedule, concurrencyRamp, rateRamp, prefill, failedThreshold, users,
                prefillRamp, series, cancellation(s, kind));
    }

    /** A phase's kind: warmup or profiling, implied by the names warmup and profiling. */
    private static PhaseKind kind(final Section s, final String name) {
        final PhaseKind implied = name.equals("warmup") ? PhaseKind.WARMUP
                : name.equals("profiling") ? PhaseKind.PROFILING : null;
        final String kindText = s.string("kind", implied == null ? null : implied.wireName());
        if (kindText == null) {
            throw s.error("kind", "a phase with a custom name needs kind: warmup or profiling");
        }
        final PhaseKind kind;
        switch (kindText.toLowerCase(Locale.ROOT)) {
            case "warmup" -> kind = PhaseKind.WARMUP;
            case "profiling" -> kind = PhaseKind.PROFILING;
            default -> throw s.error("kind", "expected warmup or profiling, got '" + kindText + "'");
        }
        if (implied != null && implied != kind) {
            throw s.error("kind", "phase '" + name + "' must have kind " + implied.wireName());
        }
        if (s.has("exclude_from_results") && s.bool("exclude_from_results", false) != (kind == PhaseKind.WARMUP)) {
            throw s.error("exclude_from_results", "must be " + (kind == PhaseKind.WARMUP) + " for a "
                    + kind.wireName() + " phase");
        }
        return kind;
    }

    /** The rate a load type needs or refuses, its users, and a gamma's smoothness. */
    private void rateAndSmoothness(final Section s, final LoadType type, final Double rate, final Double smoothness) {
        if (type.needsRate()) {
            if (rate == null) {
                throw s.error("rate", "rate-controlled phases require rate or rate_series");
            }
            if (!(rate > 0) || Double.isInfinite(rate)) {
                throw s.error("rate", "Input should be greater than 0");
            }
        } else if (type == LoadType.USER_CENTRIC) {
            userCentric(s, rate);
        } else if (rate != null) {
            throw s.error("rate", "Extra inputs are not permitted: a concurrency phase has no rate");
        }
        if (type != LoadType.USER_CENTRIC && s.has("users")) {
            throw s.error("users", "--num-users can only be used with --user-centric-rate");
        }
        if (smoothness != null) {
            if (type != LoadType.GAMMA) {
                throw s.error("smoothness", "--arrival-smoothness can only be used with --arrival-pattern gamma");
            }
            if (!(smoothness > 0)) {
                throw s.error("smoothness", "Input should be greater than 0");
            }
        }
    }

    /** When a phase ends: its requests, sessions or duration as given, and its grace and seamless start. */
    private record Stop(Integer requests, Integer sessions, Double duration, Double grace, boolean seamless) {
        Stop withRequests(final Integer count) {
            return new Stop(count, sessions, duration, grace, seamless);
        }

        Stop withSessions(final Integer count) {
            return new Stop(requests, count, duration, grace, seamless);
        }
    }

    /**
     * The phase's stop condition: as given, else a trace's rows (each once), else upstream's default count (written
     * back, with a warning).
     */
    private Stop stopCondition(final Section s, final String name, final PhaseKind kind, final LoadType type,
                               final int index, final Integer concurrency, final PhaseConfig.Schedule schedule) {
        Stop stop = givenStop(s, kind, index);
        if (type == LoadType.FIXED_SCHEDULE && samplingTrace != null) {
            throw new ConfigException(samplingTrace, "Dataset sampling strategy is not compatible with fixed schedule "
                    + "mode");
        }
        if (schedule != null) {
            final int rows = FixedScheduleBinder.rows(s, schedule, fileDataset);
            if (stop.requests() == null) {
                stop = stop.withRequests(rows); // a replay sends its rows, each once
                s.node().put("requests", stop.requests());
            }
        } else if (stop.requests() == null && stop.sessions() == null && stop.duration() == null && fileDataset != null
                && kind == PhaseKind.PROFILING) {
            if (fileDataset.format() == DatasetConfig.Format.MULTI_TURN || (fileIsDirectory
                    && fileDataset.format() == DatasetConfig.Format.RAW_PAYLOAD)) {
                stop = stop.withSessions(fileDataset.timestampsMs().size()); // every conversation of the file once, all its turns
                s.node().put("sessions", stop.sessions());
            } else if (fileIsDirectory) {
                // random_pool pools: conversations are drawn, so the run takes the count's usual default
            } else {
                stop = stop.withRequests(fileDataset.timestampsMs().size()); // every row of the file once
                s.node().put("requests", stop.requests());
            }
        }
        if (stop.requests() == null && stop.sessions() == null && stop.duration() == null) {
            // Upstream's default: enough requests to fill the closed loop twice, at least 10.
            final int fill = type == LoadType.USER_CENTRIC ? s.integer("users", 1)
                    : concurrency == null ? 1 : concurrency;
            stop = stop.withRequests(Math.max(DEFAULT_REQUEST_COUNT, 2 * fill));
            s.node().put("requests", stop.requests());
            warnings.add("phase '" + name + "' has no stop condition (requests, sessions or duration); defaulting to "
                    + stop.requests() + " requests (at least 10, twice the concurrency). Set --request-count, "
                    + "--conversation-num or --benchmark-duration.");
        }
        return stop;
    }

    /** The requests, sessions, duration, grace period and seamless start a phase gives, each checked. */
    private static Stop givenStop(final Section s, final PhaseKind kind, final int index) {
        final Integer requests = s.integer("requests", null);
        if (requests != null && requests < 1) {
            throw s.error("requests", "Input should be greater than 0");
        }
        final Double duration = s.seconds("duration");
        if (duration != null && !(duration > 0)) {
            throw s.error("duration", "Input should be greater than 0");
        }
        final Double grace = s.seconds("grace_period");
        if (grace != null) {
            if (duration == null && kind == PhaseKind.PROFILING) {
                // a warmup's grace also bounds the wait after a count-bounded warmup (--warmup-grace-period)
                throw s.error("grace_period", "--benchmark-grace-period can only be used with duration-based "
                        + "benchmarking");
            }
            if (!(grace >= 0)) {
                throw s.error("grace_period", "Input should be greater than or equal to 0");
            }
        }
        final boolean seamless = s.bool("seamless", false);
        if (seamless && index == 0) {
            throw s.error("seamless", "seamless is not allowed on the first phase");
        }
        final Integer sessions = s.integer("sessions", null);
        if (sessions != null && sessions < 1) {
            throw s.error("sessions", "Input should be greater than 0");
        }
        if (sessions != null && requests != null) {
            throw s.error("sessions", "Both a request-count and number of conversations are set; give one of them");
        }
        return new Stop(requests, sessions, duration, grace, seamless);
    }

    /** A concurrency ramp needs a concurrency; a rate ramp an open-loop rate. */
    private static void ramps(final Section s, final LoadType type, final Integer width, final Double concurrencyRamp,
                              final Double rateRamp) {
        if (concurrencyRamp != null && (!(concurrencyRamp > 0) || width == null)) {
            throw s.error("concurrency_ramp_duration", concurrencyRamp > 0 ? "a concurrency ramp needs a concurrency "
                    + "(--concurrency)" : "Input should be greater than 0");
        }
        if (rateRamp != null && type == LoadType.USER_CENTRIC) {
            throw s.error("rate_ramp_duration", "--request-rate-ramp-duration cannot be used with --user-centric-rate");
        }
        if (rateRamp != null && (!(rateRamp > 0) || !type.isRate() || type == LoadType.FIXED_SCHEDULE)) {
            throw s.error("rate_ramp_duration", rateRamp > 0 ? "a rate ramp needs a request rate (--request-rate)"
                    : "Input should be greater than 0");
        }
    }

    /** The prefill cap: at most the concurrency, and only when streaming (a request leaves prefill with a token). */
    private Integer prefill(final Section s, final Integer width) {
        final Integer prefill = s.integer("prefill_concurrency", null);
        if (prefill != null) {
            if (prefill < 1) {
                throw s.error("prefill_concurrency", "Input should be greater than or equal to 1");
            }
            if (width != null && prefill > width) {
                throw s.error("prefill_concurrency", "must not exceed the concurrency (" + width + ")");
            }
            if (!streaming) {
                throw s.error("prefill_concurrency", "needs --streaming: a request leaves prefill with its first "
                        + "token");
            }
        }
        return prefill;
    }

    private Double prefillRamp(final Section s, final Integer prefill) {
        final Double prefillRamp = s.seconds("prefill_concurrency_ramp_duration");
        if (prefillRamp != null && !(prefillRamp > 0)) {
            throw s.error("prefill_concurrency_ramp_duration", "Input should be greater than 0");
        }
        if (prefillRamp != null && prefill == null) {
            // upstream ramps only a prefill cap that is set, and ignores the ramp otherwise (its ramping template)
            warnings.add(s.field("prefill_concurrency_ramp_duration") + " has no effect without a prefill "
                    + "concurrency (--prefill-concurrency): there is no prefill cap to ramp");
            return null;
        }
        return prefillRamp;
    }

    /** A user-centric phase's users: at least one request each, and (a warning) enough concurrency for them all. */
    private Integer users(final Section s, final String name, final LoadType type, final Integer requests,
                          final Integer width) {
        final Integer users = type == LoadType.USER_CENTRIC ? s.integer("users", null) : null;
        if (users != null && requests != null && requests < users) {
            throw s.error("requests", "a user-centric phase needs at least one request per user (" + users
                    + " users)");
        }
        if (users != null && width != null && width < users) {
            warnings.add("phase '" + name + "': --concurrency " + width + " is below --num-users " + users + ": only "
                    + width + " users can hold a conversation at once, and the others starve");
        }
        return users;
    }

    /**
     * A phase's own {@code cancellation: {rate, delay}} (upstream's per-phase form; {@code runtime.request_cancellation}
     * is the run's). {@code --request-cancellation-rate} on the command line wins for the profiling phases, as
     * upstream's flag overrides its profiling phase.
     */
    private PhaseConfig.Cancellation cancellation(final Section s, final PhaseKind kind) {
        if (!s.has("cancellation")) {
            return null;
        }
        final Section c = s.section("cancellation");
        c.allowOnly(List.of("rate", "delay"));
        if (!c.has("rate")) {
            throw c.error("rate", "Field required: the percentage of requests to cancel (0-100)");
        }
        final double rate = c.number("rate", 0.0);
        final double delay = c.number("delay", 0.0);
        if (!(rate >= 0 && rate <= 100)) {
            throw c.error("rate", "Input should be a percentage between 0 and 100");
        }
        if (!(delay >= 0) || Double.isInfinite(delay)) {
            throw c.error("delay", "Input should be greater than or equal to 0");
        }
        if (kind == PhaseKind.PROFILING && cliFlags.containsKey("benchmark.runtime.request_cancellation.rate")) {
            return null;
        }
        return new PhaseConfig.Cancellation(rate, delay);
    }

    /** AIPerf's user-centric rules: N users and a rate, over multi-turn conversations. */
    private void userCentric(final Section s, final Double rate) {
        final Integer users = s.integer("users", null);
        if (users == null) {
            throw s.error("users", "--user-centric-rate requires --num-users to be set");
        }
        if (users < 1) {
            throw s.error("users", "Input should be greater than or equal to 1");
        }
        if (rate == null) {
            throw s.error("rate", "a user_centric phase needs a rate (--user-centric-rate)");
        }
        if (!(rate > 0) || Double.isInfinite(rate)) {
            throw s.error("rate", "Input should be greater than 0");
        }
        if (!multiTurn) {
            throw new ConfigException("benchmark.dataset.turns", "--user-centric-rate requires multi-turn "
                    + "conversations (--session-turns-mean >= 2)");
        }
    }
}
