package io.aiperf.engine.config;

import java.util.List;
import java.util.Locale;

/** Binds {@code benchmark.runtime}: the run's limits and client, its request cancellation, its shard and its UI. */
final class RuntimeBinder {
    private RuntimeBinder() {
    }

    /**
     * @param ui the console's mode in lower case, or null when not set
     */
    record Runtime(String ui, RunLimits limits, Shard shard) {
    }

    static Runtime bind(final Section runtime) {
        runtime.allowOnly(List.of("ui", "max_error_rate", "max_event_bytes", "max_response_bytes", "retry_unsent",
                "request_cancellation", "shard", "start_at", "http_client", "preconnect", "max_head_bytes"));
        final String ui = runtime.string("ui", null);
        final double maxErrorRate = runtime.defaultedNumber("max_error_rate");
        if (!(maxErrorRate >= 0 && maxErrorRate <= 100)) {
            throw runtime.error("max_error_rate", "Input should be a percentage between 0 and 100");
        }
        final double maxEvent = runtime.defaultedNumber("max_event_bytes");
        final double maxResponse = runtime.defaultedNumber("max_response_bytes");
        if (!(maxEvent >= 1024 && maxEvent <= Integer.MAX_VALUE - 16)) {
            throw runtime.error("max_event_bytes", "Input should be between 1024 and 2147483631");
        }
        if (!(maxResponse >= maxEvent)) {
            throw runtime.error("max_response_bytes", "Input should be at least max_event_bytes (" + (long) maxEvent + ")");
        }
        final double maxHead = runtime.defaultedNumber("max_head_bytes");
        if (!(maxHead >= 1024 && maxHead <= 1 << 30)) {
            throw runtime.error("max_head_bytes", "Input should be between 1024 and 1073741824");
        }
        final Shard shard = runtime.has("shard") || runtime.has("start_at")
                ? Shard.parse(runtime.field("shard"), runtime.string("shard", null), runtime.string("start_at", null))
                : null;
        final Section cancel = runtime.section("request_cancellation");
        cancel.allowOnly(List.of("rate", "delay"));
        final boolean delayGiven = cancel.has("delay");
        final double cancelRate = cancel.number("rate", 0.0);
        final double cancelDelay = cancel.defaultedNumber("delay");
        if (!(cancelRate >= 0 && cancelRate <= 100)) {
            throw cancel.error("rate", "Input should be a percentage greater than 0 and at most 100");
        }
        if (!(cancelDelay >= 0) || Double.isInfinite(cancelDelay)) {
            throw cancel.error("delay", "Input should be greater than or equal to 0");
        }
        // a delay needs a rate; an expanded config's "rate: 0, delay: 0" (the defaults written out) asks for nothing
        if (delayGiven && (!cancel.has("rate") || cancelRate == 0 && cancelDelay != 0)) {
            throw cancel.error("delay", "--request-cancellation-delay requires --request-cancellation-rate");
        }
        final String httpClient = runtime.string("http_client", "lean");
        if (!List.of("lean", "apache").contains(httpClient)) {
            throw runtime.error("http_client", "expected lean or apache; got '" + httpClient + "'");
        }
        final RunLimits limits = new RunLimits(maxErrorRate, (long) maxEvent, (long) maxResponse,
                runtime.bool("retry_unsent", true), cancelRate, cancelDelay, httpClient.equals("lean"),
                runtime.bool("preconnect", true), (int) maxHead);
        if (ui != null && !List.of("dashboard", "simple", "none").contains(ui.toLowerCase(Locale.ROOT))) {
            throw runtime.error("ui", "expected one of dashboard, simple, none; got '" + ui + "'");
        }
        return new Runtime(ui == null ? null : ui.toLowerCase(Locale.ROOT), limits, shard);
    }
}
