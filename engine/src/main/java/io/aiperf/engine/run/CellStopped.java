package io.aiperf.engine.run;

import io.aiperf.engine.record.CellStatus;

/** A cell that ends before its reporting: cancelled or failed while setting up or running, with why. */
final class CellStopped extends Exception {
    private final CellStatus status;
    private final long sent;

    CellStopped(final CellStatus status, final String reason, final long sent) {
        super(reason, null, false, false);
        this.status = status;
        this.sent = sent;
    }

    CellStatus status() {
        return status;
    }

    /** Requests sent before it stopped. */
    long sent() {
        return sent;
    }
}
