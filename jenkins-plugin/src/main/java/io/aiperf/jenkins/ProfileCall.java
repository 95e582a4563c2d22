package io.aiperf.jenkins;

import hudson.AbortException;
import io.aiperf.engine.ci.ArchivePlanner;
import io.aiperf.engine.ci.EngineInvocation;
import io.aiperf.engine.ci.InvocationPlanner;
import io.aiperf.engine.ci.ProfileSpec;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/** One {@code aiperf profile} call from a spec, shared by the Pipeline step and the freestyle builder. */
final class ProfileCall {
    private ProfileCall() {
    }

    static Map<String, Object> run(final ProfileSpec spec, final EngineRun engine, final ResultHandler handler)
            throws IOException, InterruptedException {
        final Map<String, String> problems = spec.validate();
        if (!problems.isEmpty()) {
            throw new AbortException("aiperfProfile: invalid settings: " + problems);
        }
        final String prefix = ArchivePlanner.prefix(spec);
        final List<String> baselines = Baselines.fetch(engine, prefix, spec.gate(), spec.baseline());
        final EngineInvocation invocation = InvocationPlanner.plan(spec, engine.engineCommand(), baselines);
        return engine.execute(invocation, prefix, spec.archive(), spec.unstableOnWarnings(), spec.credentialsId(),
                true, handler);
    }
}
