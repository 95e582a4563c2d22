package io.aiperf.engine.run;

import io.aiperf.engine.config.PhaseConfig;

/** A phase as the orchestrator drives it; {@link PhaseRunner} is the real one, tests may fake it. */
public interface Phase {
    PhaseConfig phase();

    void startSending();

    void awaitSendComplete() throws InterruptedException;

    PhaseResult awaitDrain() throws InterruptedException;
}
