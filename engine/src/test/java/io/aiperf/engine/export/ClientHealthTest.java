package io.aiperf.engine.export;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.record.OpenLoopHealth;
import io.aiperf.engine.record.TransportHealth;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What client_health names as having limited the run: an open loop short of its schedule, a pool that made requests wait. */
class ClientHealthTest {
    private static RunReport.ClientHealth health(final double poolWaitP99Millis, final OpenLoopHealth loop) {
        return new RunReport.ClientHealth(0, 1, 0, loop == null ? Map.of() : Map.of("profiling", loop),
                new TransportHealth(100, 0.1, poolWaitP99Millis, poolWaitP99Millis, 0, 0, 0, 0), 0, 0.1);
    }

    @Test
    void anOpenLoopsPoolWaitOverOneMillisecondAtP99LimitedTheRun() {
        final OpenLoopHealth onTime = new OpenLoopHealth(1000, 1000, 1000, 1000, 1000, 0, 0, 0, 0.1, 0.2, 0.3);
        assertThat(health(1.5, onTime).limitedBy()).containsExactly("pool_wait");
        assertThat(health(1.0, onTime).limitedBy()).isEmpty();
        assertThat(health(0.2, onTime).limitedBy()).isEmpty();
        // a closed loop's wait delays only its own next request: the pool_wait validity check judges it
        assertThat(health(1.5, null).limitedBy()).isEmpty();
    }

    @Test
    void anOpenLoopShortOfItsScheduleComesFirst() {
        // 1,000 due, 900 sent, 100 missed: 10% short, no ceiling.
        final OpenLoopHealth shortLoop = new OpenLoopHealth(1000, 1000, 900, 1000, 900, 0, 100, 0, 1, 2, 3);
        assertThat(shortLoop.clientLimited()).isTrue();
        assertThat(health(5, shortLoop).limitedBy()).containsExactly("open_loop", "pool_wait");
        final OpenLoopHealth onTime = new OpenLoopHealth(1000, 1000, 1000, 1000, 1000, 0, 0, 0, 0.1, 0.2, 0.3);
        assertThat(health(0.5, onTime).limitedBy()).isEmpty();
        final OpenLoopHealth ceiling = new OpenLoopHealth(1000, 1000, 900, 1000, 900, 0, 100, 50, 1, 2, 3);
        assertThat(health(5, ceiling).limitedBy()).as("the ceiling asked for held it back").isEmpty();
    }
}
