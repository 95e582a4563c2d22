package io.aiperf.engine.hooks;

import io.aiperf.engine.record.HookCall;

import java.util.ArrayList;
import java.util.List;

/** The hook calls and warnings of one cell, in order. Thread-safe. */
public final class HookLog {
    private final List<HookCall> calls = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();

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
