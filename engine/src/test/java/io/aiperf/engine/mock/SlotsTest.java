package io.aiperf.engine.mock;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SlotsTest {
    @Test
    void requestsBeyondTheSlotsWaitForTheEarliestToFreeUp() {
        final Slots slots = new Slots(2);
        assertThat(slots.admit(0, 100)).isZero();
        assertThat(slots.admit(10, 50)).isEqualTo(10);
        assertThat(slots.admit(20, 100)).as("waits for the slot freed at 60").isEqualTo(60);
        assertThat(slots.admit(30, 100)).as("then for the one freed at 100").isEqualTo(100);
        assertThat(slots.admit(500, 10)).as("an idle server starts it at once").isEqualTo(500);
    }

    @Test
    void noLimitNeverQueues() {
        final Slots slots = new Slots(0);
        for (int i = 0; i < 100; i++) {
            assertThat(slots.admit(i, 1_000)).isEqualTo(i);
        }
    }
}
