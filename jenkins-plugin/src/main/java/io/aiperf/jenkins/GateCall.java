package io.aiperf.jenkins;

import hudson.AbortException;
import hudson.FilePath;
import io.aiperf.engine.ci.BaselineChoice;
import io.aiperf.engine.ci.CallFolders;
import io.aiperf.engine.ci.EngineInvocation;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.ci.InvocationPlanner;
import io.aiperf.engine.ci.ProfileSpec;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One {@code aiperfGate} call: exports produced elsewhere (an {@code sh} step that ran {@code bin/aiperf},
 * upstream AIPerf, or a vLLM, GuideLLM or inference-perf result file the engine imports) are copied into the call's
 * own folder, gated with {@code aiperf gate} when a rules file is given, and recorded exactly as
 * {@code aiperfProfile} records its own: archive folder, build page, baselines and trend of its id.
 */
final class GateCall {
    private GateCall() {
    }

    static Map<String, Object> run(final GateSettings s, final EngineRun engine, final ResultHandler handler,
                                   final String caller) throws IOException, InterruptedException {
        final String problem = problem(s);
        if (problem != null) {
            throw new AbortException("aiperfGate: " + problem);
        }
        final CallFolders folders = CallFolders.of(InvocationPlanner.callId(s.id), List.of());
        engine.claim(folders, caller);
        engine.checks(s.checksName, s.skipPublishingChecks);
        final String exportDir = folders.exportDir(ProfileSpec.DEFAULT_ARTIFACT_DIR);
        final FilePath source = engine.workspace().child(s.results);
        if (!source.exists()) {
            throw new AbortException("aiperfGate: results: nothing at " + s.results + " in the workspace");
        }
        final FilePath folder = engine.workspace().child(exportDir);
        if (nested(folder.getRemote(), source.getRemote()) || nested(source.getRemote(), folder.getRemote())) {
            throw new AbortException("aiperfGate: results: " + s.results + " and the call's folder " + exportDir
                    + " would overlap; write the exports elsewhere in the workspace");
        }
        final String candidate;
        if (source.getRemote().equals(folder.getRemote())) {
            candidate = exportDir; // already the call's own folder: gate it in place
        } else {
            engine.freshFolder(exportDir);
            if (source.isDirectory()) {
                source.copyRecursiveTo("**/*", folder);
                candidate = exportDir;
            } else {
                source.copyTo(folder.child(source.getName()));
                candidate = exportDir + "/" + source.getName();
            }
        }
        if (s.gate == null) {
            final LinkedHashMap<String, Object> summary = engine.collect(exportDir, folders, s.archive,
                    s.unstableOnWarnings, ExitCode.OK);
            engine.apply(summary, folders.prefix(), handler);
            return summary;
        }
        final List<String> baselines = engine.baselines(folders.prefix(), s.gate, s.baseline, s.referenceJob);
        final List<String> argv = InvocationPlanner.gate(engine.engineCommand(s.jdk, "gate"), s.gate, candidate,
                baselines);
        return engine.execute(new EngineInvocation(argv, null, exportDir), folders, s.archive, s.unstableOnWarnings,
                null, handler);
    }

    /** Whether one agent path is strictly inside the other. */
    private static boolean nested(final String inner, final String outer) {
        final String o = outer.replace('\\', '/').replaceAll("/+$", "") + "/";
        return inner.replace('\\', '/').startsWith(o);
    }

    /** Why the settings cannot run, or null. */
    static String problem(final GateSettings s) {
        if (s.results == null) {
            return "results: the exports to gate are required (a folder or a result file in the workspace)";
        }
        final String where = ProfileSpec.artifactDirProblem(s.results);
        if (where != null) {
            return "results: " + where;
        }
        final String id = CallFolders.idProblem(s.id);
        if (id != null) {
            return "id: " + id;
        }
        if (s.baseline != null) {
            if (s.gate == null) {
                return "baseline: a baseline is only used with a gate rules file";
            }
            final String baseline = BaselineChoice.problem(s.baseline);
            if (baseline != null) {
                return "baseline: " + baseline;
            }
        }
        return null;
    }
}
