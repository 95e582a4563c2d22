package io.aiperf.engine.run;

import io.aiperf.engine.config.PhaseConfig;
import io.aiperf.engine.record.OpenLoopHealth;
import io.aiperf.engine.record.RequestRecord;
import java.util.List;

/**
 * What one phase produced.
 *
 * @param records completed requests, in completion order (empty when they went to a record processor)
 * @param sent requests handed to the transport
 * @param abandoned requests still in flight when the grace period ran out (excluded from records)
 * @param cancelled the user stopped the run during this phase
 * @param maxScheduleLagNanos worst lateness of an open-loop send against its schedule (0 in closed loop)
 * @param openLoop how the open loop kept its schedule, or null for a closed loop
 */
public record PhaseResult(PhaseConfig phase, List<RequestRecord> records, long sent, long abandoned,
                          boolean cancelled, long maxScheduleLagNanos, OpenLoopHealth openLoop) {
}
