package io.aiperf.engine.run;

import io.aiperf.engine.time.CancellationToken;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.aiperf.engine.config.LoadType;
import io.aiperf.engine.config.PhaseConfig;
import io.aiperf.engine.config.PhaseKind;
import io.aiperf.engine.config.ServerProfilerConfig;
import io.aiperf.engine.hooks.ControlTransport;
import io.aiperf.engine.hooks.HookException;
import io.aiperf.engine.hooks.HookLog;
import io.aiperf.engine.hooks.ProfilerSession;
import io.aiperf.engine.hooks.ServerProfiler;
import io.aiperf.engine.time.Clock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Profiler lifecycle around phases (the control-hooks contract in src-docs/control-hooks.md), with fake phases and a recording transport. */
class PhaseOrchestratorTest {
    private final List<String> events = Collections.synchronizedList(new ArrayList<>());
    private final ControlTransport transport = (url, timeout) -> {
        events.add(url.endsWith("/start_profile") ? "start" : "stop");
        return 200;
    };
    private final ProfilerSession profiler = new ProfilerSession(new ServerProfiler(transport, Clock.SYSTEM,
            new HookLog(), List.of("http://h:1"), ServerProfilerConfig.defaults()));

    private static PhaseConfig phase(final String name, final PhaseKind kind, final boolean seamless) {
        return new PhaseConfig(name, kind, LoadType.CONCURRENCY, 1, null, null, 1, null, null, null, seamless, null, null, null, null, null, null,
                null);
    }

    /** A phase that records its steps; its drain can be held until released. */
    private class FakePhase implements Phase {
        final PhaseConfig config;
        final CountDownLatch drainGate;
        final RuntimeException failOnSend;

        FakePhase(final PhaseConfig config, final CountDownLatch drainGate, final RuntimeException failOnSend) {
            this.config = config;
            this.drainGate = drainGate;
            this.failOnSend = failOnSend;
        }

        @Override
        public PhaseConfig phase() {
            return config;
        }

        @Override
        public void startSending() {
            events.add(config.name() + ":send");
            if (failOnSend != null) {
                throw failOnSend;
            }
        }

        @Override
        public void awaitSendComplete() {
            events.add(config.name() + ":sent");
        }

        @Override
        public PhaseResult awaitDrain() throws InterruptedException {
            if (drainGate != null) {
                drainGate.await();
            }
            events.add(config.name() + ":drained");
            return new PhaseResult(config, List.of(), 1, 0, false, 0, null);
        }

        @Override
        public long issuedCount() {
            return 1;
        }

        @Override
        public long completedCount() {
            return 1;
        }

        @Override
        public long errorCount() {
            return 0;
        }

        @Override
        public int inFlightCount() {
            return 0;
        }

        @Override
        public org.HdrHistogram.Histogram intervalLatencyMicros() {
            return new org.HdrHistogram.Histogram(3);
        }
    }

    @Test
    void profilerWrapsProfilingButNeverWarmup() throws Exception {
        final List<PhaseConfig> phases = List.of(phase("warmup", PhaseKind.WARMUP, false),
                phase("profiling", PhaseKind.PROFILING, false));
        new PhaseOrchestrator(phases, p -> new FakePhase(p, null, null), profiler, new CancellationToken()).run();
        assertThat(events).containsExactly("warmup:send", "warmup:sent", "warmup:drained", "start", "profiling:send",
                "profiling:sent", "profiling:drained", "stop");
    }

    @Test
    void aPhaseThatThrowsStillStopsTheProfiler() {
        final List<PhaseConfig> phases = List.of(phase("profiling", PhaseKind.PROFILING, false));
        assertThatThrownBy(() -> new PhaseOrchestrator(phases,
                p -> new FakePhase(p, null, new IllegalStateException("boom")), profiler, new CancellationToken()).run())
                .hasMessage("boom");
        assertThat(events).containsExactly("start", "profiling:send", "stop");
    }

    @Test
    void seamlessSuccessorDefersTheStopToTheDrain() throws Exception {
        final CountDownLatch holdFirstDrain = new CountDownLatch(1);
        final List<PhaseConfig> phases = List.of(phase("a", PhaseKind.PROFILING, false),
                phase("b", PhaseKind.WARMUP, true));
        final PhaseOrchestrator o = new PhaseOrchestrator(phases, p -> p.name().equals("a")
                ? new FakePhase(p, holdFirstDrain, null)
                : new FakePhase(p, null, null) {
                    @Override
                    public PhaseResult awaitDrain() throws InterruptedException {
                        holdFirstDrain.countDown(); // a drains only once b is running
                        return super.awaitDrain();
                    }
                }, profiler, new CancellationToken());
        assertThat(o.run()).hasSize(2);
        assertThat(events.indexOf("b:send")).isLessThan(events.indexOf("a:drained"));
        assertThat(events.indexOf("stop")).isGreaterThan(events.indexOf("a:drained"));
        assertThat(events.stream().filter("stop"::equals)).hasSize(1);
    }

    @Test
    void startFailureMeansThePhaseNeverSends() {
        final ControlTransport failing = (url, timeout) -> 500;
        final ProfilerSession broken = new ProfilerSession(new ServerProfiler(failing, Clock.SYSTEM, new HookLog(),
                List.of("http://h:1"), ServerProfilerConfig.defaults()));
        final List<PhaseConfig> phases = List.of(phase("profiling", PhaseKind.PROFILING, false));
        assertThatThrownBy(() -> new PhaseOrchestrator(phases, p -> new FakePhase(p, null, null), broken,
                new CancellationToken()).run()).isInstanceOf(HookException.class);
        assertThat(events).doesNotContain("profiling:send");
    }
}
