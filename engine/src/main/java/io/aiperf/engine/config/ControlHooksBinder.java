package io.aiperf.engine.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/** Binds the control calls the run makes to the server: {@code reset_kv_cache} and {@code server_profiler}. */
final class ControlHooksBinder {
    static final List<String> RESET_KEYS = List.of("path", "timeout_seconds", "max_retry_seconds");
    static final List<String> PROFILER_KEYS = List.of("start_path", "stop_path", "timeout_seconds");

    private ControlHooksBinder() {
    }

    /**
     * A hook's mapping: {@code false} or absent turns it off (written back as false, null returned), {@code true}
     * takes its defaults, an object its keys; anything else names the field.
     */
    private static Section hookSection(final Section e, final String key, final String type,
                                       final java.util.List<String> keys) {
        final JsonNode v = e.raw(key);
        if (v == null || v.isNull() || (v.isBoolean() && !v.booleanValue())) {
            e.node().put(key, false);
            return null;
        }
        if (v.isBoolean()) {
            e.node().putObject(key);
        } else if (!v.isObject()) {
            throw e.error(key, "Expected false | true | object for " + type + ", got " + Section.typeName(v));
        }
        final Section s = e.section(key);
        s.allowOnly(keys);
        return s;
    }

    static ResetKvCacheConfig resetHook(final Section e) {
        final Section s = hookSection(e, "reset_kv_cache", "ResetKvCacheConfig", RESET_KEYS);
        if (s == null) {
            return null;
        }
        final String path = hookPath(s, "path", ResetKvCacheConfig.DEFAULT_PATH);
        final double timeout = positive(s, "timeout_seconds", ResetKvCacheConfig.DEFAULT_TIMEOUT_SECONDS);
        final double retry = s.number("max_retry_seconds", ResetKvCacheConfig.DEFAULT_MAX_RETRY_SECONDS);
        if (!(retry >= 0) || Double.isInfinite(retry)) {
            throw s.error("max_retry_seconds", "Input should be greater than or equal to 0 and finite, got "
                    + s.raw("max_retry_seconds"));
        }
        return new ResetKvCacheConfig(path, timeout, retry);
    }

    static ServerProfilerConfig profilerHook(final Section e) {
        final Section s = hookSection(e, "server_profiler", "ServerProfilerConfig", PROFILER_KEYS);
        if (s == null) {
            return null;
        }
        return new ServerProfilerConfig(hookPath(s, "start_path", ServerProfilerConfig.DEFAULT_START_PATH),
                hookPath(s, "stop_path", ServerProfilerConfig.DEFAULT_STOP_PATH),
                positive(s, "timeout_seconds", ServerProfilerConfig.DEFAULT_TIMEOUT_SECONDS));
    }

    private static String hookPath(final Section s, final String key, final String def) {
        String p = s.string(key, null);
        if (p == null || p.isEmpty()) {
            p = def;
            s.node().put(key, def);
        }
        if (!p.startsWith("/") || p.contains("://")) {
            throw s.error(key, s.pathOf(key) + " must be a relative path starting with '/', got '" + p + "'");
        }
        return p;
    }

    private static double positive(final Section s, final String key, final double def) {
        final double v = s.number(key, def);
        if (!(v > 0) || Double.isInfinite(v)) {
            throw s.error(key, "Input should be greater than 0 and finite, got " + s.raw(key));
        }
        return v;
    }
}
