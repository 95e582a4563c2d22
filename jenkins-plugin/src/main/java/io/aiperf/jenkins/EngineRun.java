package io.aiperf.jenkins;

import com.cloudbees.plugins.credentials.CredentialsProvider;
import hudson.AbortException;
import hudson.EnvVars;
import hudson.FilePath;
import hudson.Launcher;
import hudson.Proc;
import hudson.model.Result;
import hudson.model.Run;
import hudson.model.TaskListener;
import hudson.slaves.WorkspaceList;
import io.aiperf.engine.ci.ArchivePlanner;
import io.aiperf.engine.ci.CallFolders;
import io.aiperf.engine.ci.Comparison;
import io.aiperf.engine.ci.EngineInvocation;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.ci.StepSummary;
import io.aiperf.engine.ci.Verdict;
import io.aiperf.engine.redact.MaskingOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import jenkins.util.BuildListenerAdapter;
import org.jenkinsci.plugins.plaincredentials.StringCredentials;
import org.jenkinsci.plugins.workflow.graph.FlowNode;

/**
 * One engine process on the agent, shared by every step and the freestyle builder: runs it with the Java of the
 * step's environment ({@link EngineJvm}) in the call's own, freshly emptied folder, streams its output (secrets
 * masked) to the build log, archives its exports through the run's artifact manager, and turns the engine's verdict
 * into the build result. Every decision comes from {@code io.aiperf.engine.ci}.
 */
final class EngineRun implements AutoCloseable {
    /** How long past the launcher's soft-kill wait an abort waits for the engine to finish writing. */
    private static final int STOP_MARGIN_SECONDS = 10;
    private final Run<?, ?> run;
    private final FilePath workspace;
    private final EnvVars env;
    private final Launcher launcher;
    private final TaskListener listener;
    private final FilePath scratch;
    private EngineJvm jvm;
    private String subcommand;
    private Baselines.Chosen baselines = Baselines.Chosen.NONE;
    private CallFolders claimed;
    private boolean passed;
    private String checksName;
    private boolean skipPublishingChecks;

    EngineRun(final Run<?, ?> run, final FilePath workspace, final EnvVars env, final Launcher launcher,
              final TaskListener listener) throws IOException, InterruptedException {
        this.run = run;
        this.workspace = workspace;
        this.env = env;
        this.launcher = launcher;
        this.listener = listener;
        workspace.mkdirs(); // the engine and the Java probe start in it
        final FilePath tmp = WorkspaceList.tempDir(workspace);
        if (tmp == null) {
            throw new AbortException("aiperf: the workspace " + workspace.getRemote() + " has no temporary directory");
        }
        tmp.mkdirs();
        this.scratch = tmp.createTempDir("aiperf", "");
    }

    /** How a call is named in messages, e.g. when two calls claim the same id: the step and its flow node. */
    static String caller(final String function, final FlowNode node) {
        return node == null ? function : function + " (flow node " + node.getId() + ")";
    }

    /**
     * Claims the call's folders in this build ({@link CallClaims}); they are freed again when the call ends without
     * passing (FAILURE, an abort, an error), so {@code retry} can run it again.
     */
    void claim(final CallFolders folders, final String caller) throws AbortException {
        CallClaims.claim(run, folders, caller);
        claimed = folders;
    }

    /**
     * How the verdict is published as a check (checks-api), when it is.
     *
     * @param name the check's name, or null for {@code AIPerf <id>}
     * @param skip whether to publish none
     */
    void checks(final String name, final boolean skip) {
        this.checksName = name;
        this.skipPublishingChecks = skip;
    }

    Run<?, ?> run() {
        return run;
    }

    TaskListener listener() {
        return listener;
    }

    FilePath workspace() {
        return workspace;
    }

    /**
     * Finds and fetches the baselines of this call's archive folder ({@link Baselines}); the summary compares with
     * them.
     *
     * @param referenceJob the job whose builds give the baselines, or null for this build's job
     * @return the agent directories to pass to the engine's gate
     */
    List<String> baselines(final String prefix, final String gate, final String baseline, final String referenceJob)
            throws IOException, InterruptedException {
        baselines = Baselines.fetch(this, prefix, gate, baseline, referenceJob);
        return baselines.dirs();
    }

    /** A folder for this call's scratch files on the agent (deleted by {@link #close()}). */
    FilePath scratch() {
        return scratch;
    }

    /**
     * The engine command prefix on the agent, {@code [java, <JVM options>, -jar, <engine jar>]}.
     *
     * @param jdk the step's {@code jdk} setting, or null for Java from its environment
     * @param subcommand the engine command it will run
     */
    List<String> engineCommand(final String jdk, final String subcommand) throws IOException, InterruptedException {
        jvm = EngineJvm.prepare(workspace, env, launcher, listener, jdk, subcommand);
        this.subcommand = subcommand;
        return jvm.command();
    }

    /** Empties the call's own folder in the workspace, so nothing of an earlier build is archived with this one. */
    void freshFolder(final String exportDir) throws IOException, InterruptedException {
        final FilePath dir = workspace.child(exportDir);
        dir.deleteRecursive();
        dir.mkdirs();
    }

    /**
     * Runs the engine (its folder prepared by the caller, see {@link #freshFolder}), archives its exports under the
     * folders' prefix, records and returns the step's summary, and applies the verdict: FAILURE throws
     * {@link AbortException}, UNSTABLE goes to the handler, ABORTED (the engine stopped by a signal from elsewhere)
     * ends the step aborted. A Jenkins abort (the step's thread interrupted) arrives while the engine runs: Jenkins'
     * launcher then sends SIGTERM to the engine's process tree, waits up to its soft-kill wait
     * ({@code SoftKillWaitSeconds}, 5 s) and then only asks the {@code ProcessKiller} extensions (none by default:
     * no SIGKILL); what the engine wrote by then is archived and recorded, and the abort goes on even when that
     * fails.
     */
    LinkedHashMap<String, Object> execute(final EngineInvocation invocation, final CallFolders folders,
                                          final boolean archive, final boolean unstableOnWarnings,
                                          final String credentialsId, final ResultHandler handler)
            throws IOException, InterruptedException {
        final Map<String, String> childEnv = new HashMap<>(env);
        final List<String> secrets = new ArrayList<>();
        if (invocation.apiKeyVariable() != null) {
            final String secret = apiKey(credentialsId);
            childEnv.put(invocation.apiKeyVariable(), secret);
            secrets.add(secret);
        }
        // A profile run keeps its process id in this file while it runs and deletes it once its results are written.
        final FilePath pidFile = "profile".equals(subcommand) ? scratch.child("engine-" + UUID.randomUUID() + ".pid")
                : null;
        final List<String> argv = new ArrayList<>(invocation.argv());
        if (pidFile != null) {
            argv.add("--pid-file");
            argv.add(pidFile.getRemote());
        }
        int exitCode;
        try {
            exitCode = runEngine(argv, childEnv, secrets, pidFile);
        } catch (InterruptedException aborted) {
            // Proc.join() has asked for the engine's process tree to be killed (SIGTERM); what it wrote is archived
            listener.getLogger().println("aiperf: the build was aborted; Jenkins stopped the engine, archiving what"
                    + " it wrote");
            if (jvm != null) {
                jvm.discardClassList(); // no archive is built from a stopped JVM's class list
            }
            try {
                collect(invocation.exportDir(), folders, archive, unstableOnWarnings, ExitCode.TERMINATED);
            } catch (IOException e) {
                // the abort stays what ends the step; this only costs the partial results
                listener.getLogger().println("aiperf: could not archive what the engine wrote: " + e.getMessage());
                aborted.addSuppressed(e);
            }
            throw aborted;
        }
        final LinkedHashMap<String, Object> summary = collect(invocation.exportDir(), folders, archive,
                unstableOnWarnings, exitCode);
        if (jvm != null) {
            jvm.buildArchive(workspace, env, launcher);
        }
        apply(summary, folders.prefix(), handler);
        return summary;
    }

    /** Runs the engine to its end and returns its exit code; an abort arrives as an {@link InterruptedException}. */
    private int runEngine(final List<String> argv, final Map<String, String> childEnv, final List<String> secrets,
                          final FilePath pidFile) throws IOException, InterruptedException {
        // one masking stream per copier thread: a stream buffers the line it masks and has one writer
        try (OutputStream out = MaskingOutputStream.leavingOpen(listener.getLogger(), secrets);
             OutputStream err = MaskingOutputStream.leavingOpen(listener.getLogger(), secrets)) {
            final Proc proc;
            try {
                proc = launcher.launch().cmds(argv).envs(childEnv).pwd(workspace).stdout(out).stderr(err).start();
            } catch (IOException e) {
                throw new AbortException("aiperf: cannot start the engine: " + e.getMessage());
            }
            try {
                return proc.join();
            } catch (InterruptedException aborted) {
                // An interrupted join returns before the engine has stopped (on an agent its output is still on the
                // way): the masks stay open until it has written its partial results and exited.
                awaitExit(pidFile);
                throw aborted;
            }
        }
    }

    /**
     * On an agent, the interrupted join only asks the agent to kill the engine; this waits (bounded by the soft-kill
     * wait and a margin) until the engine has deleted its pid file, i.e. written its partial results, or was killed.
     * A second abort interrupts the wait.
     */
    private static void awaitExit(final FilePath pidFile) throws InterruptedException {
        if (pidFile == null) {
            return;
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Integer.getInteger("SoftKillWaitSeconds", 5)
                + STOP_MARGIN_SECONDS);
        try {
            while (pidFile.exists() && System.nanoTime() < deadline) {
                Thread.sleep(200);
            }
        } catch (IOException agentGone) {
            // nothing left to wait for
        }
    }

    /** Runs a short engine command (no secrets) and returns what it printed; its errors go to the build log. */
    String output(final List<String> cmd) throws IOException, InterruptedException {
        // Collected through a stream, not readStdout(): inside container() the exec's own streams are the only
        // ones that carry the output.
        final java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        final int exit = launcher.launch().cmds(cmd).envs(env).pwd(workspace).stdout(out)
                .stderr(listener.getLogger()).join();
        if (exit != ExitCode.OK) {
            throw new AbortException("aiperf: the engine exited with code " + exit + " (see the log above)");
        }
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }

    /** Archives a call's folder and records its summary on the build (also for exports produced elsewhere). */
    LinkedHashMap<String, Object> collect(final String exportDir, final CallFolders folders, final boolean archive,
                                          final boolean unstableOnWarnings, final int exitCode)
            throws IOException, InterruptedException {
        final String prefix = folders.prefix();
        final List<String> archived = new ArrayList<>();
        if (archive) {
            final List<String> files = workspace.act(new AgentCalls.ListExports(exportDir));
            final Map<String, String> artifacts = ArchivePlanner.artifacts(exportDir, files, prefix);
            if (!artifacts.isEmpty()) {
                run.pickArtifactManager().archive(workspace, launcher, BuildListenerAdapter.wrap(listener), artifacts);
                archived.addAll(artifacts.keySet());
                listener.getLogger().println("aiperf: archived " + artifacts.size() + " file(s) under " + prefix);
            }
        }
        final LinkedHashMap<String, Object> summary = workspace.act(
                new AgentCalls.Summarize(exportDir, exitCode, unstableOnWarnings, archived));
        summary.put(StepSummary.ID, folders.id());
        summary.put(StepSummary.EXPORT_DIR, exportDir);
        summary.put(StepSummary.BASELINE_BUILDS, new ArrayList<>(baselines.builds()));
        summary.put(StepSummary.BASELINE_JOB, baselines.job());
        @SuppressWarnings("unchecked")
        final List<Map<String, Object>> rules = (List<Map<String, Object>>) summary.get(StepSummary.GATE_RULES);
        summary.put(StepSummary.COMPARISON, Comparison.rows(StepSummary.metrics(summary), baselines.metrics(), rules));
        AiperfBuildAction.record(run, prefix, summary);
        return summary;
    }

    /** Publishes the call's check and turns its verdict into the build result (FAILURE throws). */
    void apply(final Map<String, Object> summary, final String prefix, final ResultHandler handler)
            throws IOException, InterruptedException {
        if (!skipPublishingChecks) {
            ChecksPublishing.publish(run, listener, summary, prefix, checksName);
        }
        final Verdict verdict = Verdict.of(summary.get(StepSummary.VERDICT));
        final List<?> warnings = (List<?>) summary.get(StepSummary.WARNINGS);
        warnings.forEach(w -> listener.getLogger().println("aiperf warning: " + w));
        final String reasons = String.join("; ", strings(summary.get(StepSummary.REASONS)));
        switch (verdict) {
            case SUCCESS -> listener.getLogger().println("aiperf: SUCCESS");
            case UNSTABLE -> {
                listener.getLogger().println("aiperf: UNSTABLE: " + reasons);
                handler.setResult(Result.UNSTABLE, "aiperf: " + reasons);
            }
            // stopped by a signal that was not a Jenkins abort (exit 130 or 143): the build is aborted, not failed
            case ABORTED -> handler.abort("aiperf: ABORTED: " + reasons);
            case FAILURE -> throw new AbortException("aiperf: FAILURE: " + reasons);
        }
        passed = true;
    }

    private static List<String> strings(final Object list) {
        final List<String> out = new ArrayList<>();
        if (list instanceof List<?> l) {
            l.forEach(o -> out.add(String.valueOf(o)));
        }
        return out;
    }

    /** The one place the secret is read: straight into the engine's environment. */
    private String apiKey(final String credentialsId) throws AbortException {
        final StringCredentials credentials = CredentialsProvider.findCredentialById(credentialsId,
                StringCredentials.class, run);
        if (credentials == null) {
            throw new AbortException("aiperf: no Secret text credential with id '" + credentialsId
                    + "' is visible to this build");
        }
        CredentialsProvider.track(run, credentials);
        return credentials.getSecret().getPlainText();
    }

    /** Deletes the scratch folder; a folder that cannot be deleted never fails a finished benchmark. */
    @Override
    public void close() throws InterruptedException {
        if (claimed != null && !passed) {
            CallClaims.release(run, claimed);
        }
        try {
            scratch.deleteRecursive();
        } catch (IOException e) {
            listener.getLogger().println("aiperf: could not delete " + scratch.getRemote() + ": " + e.getMessage());
        }
    }
}
