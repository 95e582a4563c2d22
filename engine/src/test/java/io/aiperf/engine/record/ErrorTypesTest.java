package io.aiperf.engine.record;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Transport failures read as upstream AIPerf's; what the Java side knew stays in the message. */
class ErrorTypesTest {
    @Test
    void aJavaTimeoutIsUpstreamsTimeoutErrorWithTheJavaClassInTheMessage() {
        final ErrorDetails e = ErrorTypes.upstreamStyle(new ErrorDetails(null, "TimeoutException",
                "Request timed out after 2.0 seconds"));
        assertThat(e).isEqualTo(new ErrorDetails(null, "TimeoutError",
                "TimeoutException: Request timed out after 2.0 seconds"));
        assertThat(ErrorTypes.upstreamStyle(new ErrorDetails(null, "ConnectionClosedException",
                "ConnectionClosedException")).message()).isEqualTo("ConnectionClosedException");
    }

    @Test
    void httpErrorsAndTypesWithoutACounterpartAreKept() {
        final ErrorDetails http = new ErrorDetails(503, "Service Unavailable", "overloaded");
        assertThat(ErrorTypes.upstreamStyle(http)).isSameAs(http);
        final ErrorDetails dns = new ErrorDetails(null, "UnknownHostException", "no.such.host");
        assertThat(ErrorTypes.upstreamStyle(dns)).isSameAs(dns);
        assertThat(ErrorTypes.upstreamStyle((ErrorDetails) null)).isNull();
        final ResponseData ok = new ResponseData(1, 2, new long[] {3}, 1, 0, "x", null, null, null, 0,
                TransportTimes.NONE);
        assertThat(ErrorTypes.upstreamStyle(ok)).isSameAs(ok);
    }

    @Test
    void aRenamedResponseKeepsEverythingElse() {
        final ResponseData failed = ResponseData.failed(42, new ErrorDetails(null, "ConnectException", "refused"));
        final ResponseData renamed = ErrorTypes.upstreamStyle(failed);
        assertThat(renamed.error().type()).isEqualTo("ConnectionRefusedError");
        assertThat(renamed.startPerfNanos()).isEqualTo(42);
        assertThat(renamed.transport()).isEqualTo(failed.transport());
    }
}
