package io.aiperf.engine.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A cancel is never lost, whenever it lands relative to the transport attaching its attempt. */
class InFlightTest {
    @Test
    void aCancelBeforeTheAttemptIsAttachedCancelsItOnAttach() {
        final InFlight handle = new InFlight();
        handle.expire(); // the timeout fires while execute() has not returned yet
        final CompletableFuture<Void> attempt = new CompletableFuture<>();
        handle.attach(attempt);
        assertThat(attempt).isCancelled();
        assertThat(handle.expired()).isTrue();
    }

    @Test
    void aCancelAfterAttachCancelsTheCurrentAttemptOnly() {
        final InFlight handle = new InFlight();
        final CompletableFuture<Void> first = new CompletableFuture<>();
        handle.attach(first);
        first.complete(null);
        final CompletableFuture<Void> retry = new CompletableFuture<>();
        handle.attach(retry); // a retry replaced the first attempt
        handle.cancel();
        assertThat(retry).isCancelled();
        assertThat(first).isNotCancelled();
    }
}
