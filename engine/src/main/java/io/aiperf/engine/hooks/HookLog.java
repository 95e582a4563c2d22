package io.aiperf.engine.hooks;

import io.aiperf.engine.record.HookCall;

import java.util.ArrayList;
import java.util.List;

/** The hook calls and warnings of one cell, in order. Thread-safe. */
public final class HookLog {
    private final List<HookCall> calls = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();
    private volatile java.util.function.Consumer<String> retries = message -> { };

    /** Where a hook that is about to try again says so (the console): a reset may retry for a minute. */
    public HookLog onRetry(final java.util.function.Consumer<String> sink) {
        retries = sink;
        return this;
    }

    /** A hook failed and will try again: said at once, not only in the outcome. */
    public void retrying(final String message) {
        retries.accept(message);
    }

    public synchronized void call(final HookCall call) {
        calls.add(call);
    }

    public synchronized void warn(final String warning) {
        warnings.add(warning);
    }

    public synchronized List<HookCall> calls() {
        return List.copyOf(calls);
    }

    public synchronized List<String> warnings() {
        return List.copyOf(warnings);
    }
}
