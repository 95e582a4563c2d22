package io.aiperf.jenkins;

import hudson.AbortException;
import io.aiperf.engine.ci.CallFolders;
import io.aiperf.engine.ci.EngineInvocation;
import io.aiperf.engine.ci.InvocationPlanner;
import io.aiperf.engine.ci.ProfileSpec;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/** One {@code aiperf profile} (or {@code compare}) call from a spec, shared by the Pipeline step and the builder. */
final class ProfileCall {
    private ProfileCall() {
    }

    /** @param caller how the call is named if its id clashes with another call's ({@link EngineRun#caller}) */
    static Map<String, Object> run(final ProfileSettings settings, final EngineRun engine, final ResultHandler handler,
                                   final String caller) throws IOException, InterruptedException {
        final ProfileSpec spec = settings.toSpec();
        final Map<String, String> problems = spec.validate();
        if (!problems.isEmpty()) {
            throw new AbortException(caller + ": invalid settings: " + problems); // names the builder in freestyle
        }
        final CallFolders folders = spec.folders();
        engine.claim(folders, caller);
        engine.checks(settings.checksName, settings.skipPublishingChecks);
        final List<String> baselines = engine.baselines(folders.prefix(), spec.gate(), spec.baseline(),
                settings.referenceJob);
        final String subcommand = spec.compareWith() == null || spec.compareWith().isBlank() ? "profile" : "compare";
        final EngineInvocation invocation = InvocationPlanner.plan(spec, engine.engineCommand(spec.jdk(), subcommand),
                baselines, "#" + engine.run().getNumber()); // trends of the archived runs are labelled by build
        engine.freshFolder(invocation.exportDir());
        return engine.execute(invocation, folders, spec.archive(), spec.unstableOnWarnings(), spec.credentialsId(),
                handler);
    }
}
