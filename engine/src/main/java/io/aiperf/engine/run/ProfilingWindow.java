package io.aiperf.engine.run;

/**
 * Told when each profiling phase starts sending and when it has drained (never for warmup), in the same places as
 * the server profiler; overlapping phases each open and close once.
 */
public interface ProfilingWindow {
    ProfilingWindow NONE = new ProfilingWindow() {
        @Override
        public void opened() {
        }

        @Override
        public void closed() {
        }
    };

    void opened();

    void closed();
}
