package io.aiperf.engine.mock;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the mock has seen, for tests and rehearsals: control-hook counters, inference count, an ordered
 * event list, and the faults still armed. Thread-safe (one lock; the mock is never the hot path's bottleneck
 * because events are appended in O(1)).
 */
public final class ControlState {
    /** Cap on the event list so a long benchmark against the mock keeps constant memory. */
    static final int MAX_EVENTS = 200_000;
    private final List<String> events = new ArrayList<>();
    private final Map<String, Integer> calls = new HashMap<>();
    private final Map<String, List<Fault>> faults = new HashMap<>();
    private int resetCount;
    private int profilerStarts;
    private int profilerStops;
    private long inferenceRequests;
    private long droppedConnections;
    private boolean eventsTruncated;
    private int authorizedAdminCalls;
    private final PromptLedger prompts = new PromptLedger();
    private final MockMetrics metrics = new MockMetrics();

    MockMetrics metrics() {
        return metrics;
    }

    /** The Prometheus text of {@code GET /metrics}. */
    String metricsText(final long nowNanos) {
        final long[] blocks = prompts.blockCounts();
        return metrics.render(nowNanos, blocks[0], blocks[1]);
    }

    /** Where inference requests' prompts are recorded. */
    PromptLedger ledger() {
        return prompts;
    }

    /** The prompts seen: totals, prefix reuse and the recent requests (as served in {@code prompts}). */
    public Map<String, Object> promptsSeen() {
        return prompts.snapshot();
    }

    /** An admin call carried the inference credential (control POSTs must, the control-hooks contract in src-docs/control-hooks.md). */
    synchronized void authorizedAdminCall() {
        authorizedAdminCalls++;
    }

    public synchronized int authorizedAdminCalls() {
        return authorizedAdminCalls;
    }

    synchronized void event(final String name) {
        switch (name) {
            case "reset" -> {
                resetCount++;
                prompts.forgetBlocks();
            }
            case "start_profile" -> profilerStarts++;
            case "stop_profile" -> profilerStops++;
            case "inference" -> inferenceRequests++;
            default -> { }
        }
        if (events.size() < MAX_EVENTS) {
            events.add(name);
        } else {
            eventsTruncated = true;
        }
    }

    /** Counts a call to {@code route} and returns the fault to apply to it, or null. */
    synchronized Fault onCall(final String route) {
        calls.merge(route, 1, Integer::sum);
        final List<Fault> list = faults.get(route);
        if (list == null) {
            return null;
        }
        for (int i = 0; i < list.size(); i++) {
            final Fault f = list.get(i);
            if (f.count() < 0) {
                return f;
            }
            if (f.count() > 0) {
                final Fault left = new Fault(f.route(), f.kind(), f.status(), f.count() - 1, f.amount());
                if (left.count() == 0) {
                    list.remove(i);
                } else {
                    list.set(i, left);
                }
                return f;
            }
        }
        return null;
    }

    public synchronized void addFault(final Fault fault) {
        faults.computeIfAbsent(fault.route(), r -> new ArrayList<>()).add(fault);
    }

    /** Forgets counters, events and faults. */
    public synchronized void clear() {
        events.clear();
        calls.clear();
        faults.clear();
        resetCount = 0;
        profilerStarts = 0;
        profilerStops = 0;
        inferenceRequests = 0;
        droppedConnections = 0;
        eventsTruncated = false;
        authorizedAdminCalls = 0;
        prompts.clear();
        metrics.clear();
    }

    public synchronized int resetCount() {
        return resetCount;
    }

    public synchronized int profilerStarts() {
        return profilerStarts;
    }

    public synchronized int profilerStops() {
        return profilerStops;
    }

    synchronized void droppedConnection() {
        droppedConnections++;
    }

    /** Connections closed unanswered by the {@code drop} fault. */
    public synchronized long droppedConnections() {
        return droppedConnections;
    }

    public synchronized long inferenceRequests() {
        return inferenceRequests;
    }

    public synchronized List<String> events() {
        return List.copyOf(events);
    }

    public synchronized int calls(final String route) {
        return calls.getOrDefault(route, 0);
    }

    /** The document served at {@code GET /admin/control-state}. */
    synchronized Map<String, Object> snapshot() {
        final Map<String, Object> m = new LinkedHashMap<>();
        m.put("reset_count", resetCount);
        m.put("dropped_connections", droppedConnections);
        m.put("profiler_starts", profilerStarts);
        m.put("profiler_stops", profilerStops);
        m.put("inference_requests", inferenceRequests);
        m.put("authorized_admin_calls", authorizedAdminCalls);
        m.put("calls", new HashMap<>(calls));
        m.put("events", List.copyOf(events));
        m.put("events_truncated", eventsTruncated);
        m.put("prompts", prompts.snapshot());
        return m;
    }
}
