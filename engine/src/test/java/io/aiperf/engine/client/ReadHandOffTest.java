package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The ring between a reading thread and its loop: order, reuse of its batches, and the wait when it is full. */
class ReadHandOffTest {
    @Test
    void batchesArriveInTheOrderPublishedAndAreReusedInTurn() {
        final AtomicInteger wakes = new AtomicInteger();
        final ReadHandOff ring = new ReadHandOff(2, 1024, 4, wakes::incrementAndGet);
        final ReadHandOff.Batch first = ring.filling();
        first.bytes.put((byte) 1);
        first.add(null, 0, 1, 10, 0, null);
        ring.publish(first);
        final ReadHandOff.Batch second = ring.filling();
        assertThat(second).isNotSameAs(first);
        second.bytes.put((byte) 2);
        second.add(null, 0, 1, 20, 0, null);
        ring.publish(second);
        assertThat(wakes.get()).isEqualTo(2);

        assertThat(ring.next()).isSameAs(first);
        assertThat(first.at[0]).isEqualTo(10);
        assertThat(first.view.array()[0]).isEqualTo((byte) 1);
        ring.release(first);
        assertThat(ring.next()).isSameAs(second);
        ring.release(second);
        assertThat(ring.next()).isNull();
        assertThat(ring.pending()).isFalse();

        final ReadHandOff.Batch third = ring.filling();
        assertThat(third).isSameAs(first); // the same buffer again, emptied: nothing allocated per read
        assertThat(third.size).isZero();
        assertThat(third.bytes.position()).isZero();
        assertThat(third.from[0]).isNull();
    }

    @Test
    void anEmptyBatchIsKeptForTheNextReads() {
        final ReadHandOff ring = new ReadHandOff(2, 1024, 4, () -> { });
        final ReadHandOff.Batch b = ring.filling();
        ring.publish(b);
        assertThat(ring.pending()).isFalse();
        assertThat(ring.filling()).isSameAs(b);
    }

    @Test
    void theReaderWaitsWhileTheLoopHoldsEveryBatchAndGoesOnWhenOneIsBack() throws Exception {
        final ReadHandOff ring = new ReadHandOff(2, 1024, 4, () -> { });
        for (int i = 0; i < 2; i++) {
            final ReadHandOff.Batch b = ring.filling();
            b.add(null, 0, 1, i, 0, null);
            ring.publish(b);
        }
        final CompletableFuture<ReadHandOff.Batch> third = CompletableFuture.supplyAsync(ring::filling);
        while (ring.stalls() == 0) {
            Thread.onSpinWait();
        }
        assertThat(third).isNotDone(); // a full ring: the reader waits, it does not read into more memory
        final ReadHandOff.Batch oldest = ring.next();
        ring.release(oldest);
        assertThat(third.get(30, TimeUnit.SECONDS)).isSameAs(oldest);
    }

    @Test
    void closingLetsAWaitingReaderGo() throws Exception {
        final ReadHandOff ring = new ReadHandOff(1, 1024, 4, () -> { });
        final ReadHandOff.Batch b = ring.filling();
        b.add(null, 0, 1, 0, 0, null);
        ring.publish(b);
        final CompletableFuture<ReadHandOff.Batch> waiting = CompletableFuture.supplyAsync(ring::filling);
        while (ring.stalls() == 0) {
            Thread.onSpinWait();
        }
        ring.close();
        assertThat(waiting.get(30, TimeUnit.SECONDS)).isNull();
    }
}
