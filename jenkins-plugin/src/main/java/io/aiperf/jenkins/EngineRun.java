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
import hudson.remoting.VirtualChannel;
import hudson.slaves.WorkspaceList;
import io.aiperf.engine.ci.ArchivePlanner;
import io.aiperf.engine.ci.EngineInvocation;
import io.aiperf.engine.ci.ExitCode;
import io.aiperf.engine.ci.StepSummary;
import io.aiperf.engine.redact.MaskingOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import jenkins.util.BuildListenerAdapter;
import org.jenkinsci.plugins.plaincredentials.StringCredentials;

/**
 * One engine process on the agent, shared by every step and the freestyle builder: copies the engine jar next
 * to the workspace, runs it with the agent's Java, streams its output (secrets masked) to the build log, stops
 * it with SIGTERM when the build is aborted, archives its exports through the run's artifact manager, and turns
 * the engine's verdict into the build result. Every decision comes from {@code io.aiperf.engine.ci}.
 */
final class EngineRun implements AutoCloseable {
    /** The runnable engine, bundled in the plugin at build time. */
    private static final String ENGINE_JAR = "engine/aiperf.jar";
    private static final long STOP_WAIT_SECONDS = 60;

    private final Run<?, ?> run;
    private final FilePath workspace;
    private final EnvVars env;
    private final Launcher launcher;
    private final TaskListener listener;
    private final FilePath scratch;

    EngineRun(final Run<?, ?> run, final FilePath workspace, final EnvVars env, final Launcher launcher,
              final TaskListener listener) throws IOException, InterruptedException {
        this.run = run;
        this.workspace = workspace;
        this.env = env;
        this.launcher = launcher;
        this.listener = listener;
        final FilePath tmp = WorkspaceList.tempDir(workspace);
        if (tmp == null) {
            throw new AbortException("aiperf: the workspace " + workspace.getRemote() + " has no temporary directory");
        }
        tmp.mkdirs();
        this.scratch = tmp.createTempDir("aiperf", "");
    }

    Run<?, ?> run() {
        return run;
    }

    TaskListener listener() {
        return listener;
    }

    /** A folder for this call's scratch files on the agent (deleted by {@link #close()}). */
    FilePath scratch() {
        return scratch;
    }

    /** {@code [java, -jar, <engine jar>]} on the agent; the jar is copied there on the first call. */
    List<String> engineCommand() throws IOException, InterruptedException {
        final FilePath jar = scratch.child("aiperf.jar");
        if (!jar.exists()) {
            final URL bundled = EngineRun.class.getResource(ENGINE_JAR);
            if (bundled == null) {
                throw new AbortException("aiperf: this plugin was built without its engine jar (" + ENGINE_JAR + ")");
            }
            jar.copyFrom(bundled);
        }
        final VirtualChannel channel = launcher.getChannel();
        if (channel == null) {
            throw new AbortException("aiperf: the agent is offline");
        }
        final String javaHome = channel.call(new AgentCalls.JavaHome());
        final String java = javaHome + (launcher.isUnix() ? "/bin/java" : "\\bin\\java.exe");
        return List.of(java, "-jar", jar.getRemote());
    }

    /**
     * Runs the engine, archives its exports under {@code prefix}, records and returns the step's summary, and
     * applies the verdict: FAILURE throws {@link AbortException}, UNSTABLE goes to the handler.
     *
     * @param stoppable whether the command takes {@code --pid-file} (then an abort sends it SIGTERM)
     */
    LinkedHashMap<String, Object> execute(final EngineInvocation invocation, final String prefix, final boolean archive,
                                          final boolean unstableOnWarnings, final String credentialsId,
                                          final boolean stoppable, final ResultHandler handler)
            throws IOException, InterruptedException {
        final List<String> cmd = new ArrayList<>(invocation.argv());
        final FilePath pidFile = scratch.child("engine-" + UUID.randomUUID() + ".pid");
        if (stoppable) {
            cmd.add("--pid-file");
            cmd.add(pidFile.getRemote());
        }
        final Map<String, String> childEnv = new HashMap<>(env);
        final List<String> secrets = new ArrayList<>();
        if (invocation.apiKeyVariable() != null) {
            final String secret = apiKey(credentialsId);
            childEnv.put(invocation.apiKeyVariable(), secret);
            secrets.add(secret);
        }
        int exitCode;
        InterruptedException aborted = null;
        try (OutputStream log = new MaskingOutputStream(new NonClosing(listener.getLogger()), secrets)) {
            final Proc proc;
            try {
                proc = launcher.launch().cmds(cmd).envs(childEnv).pwd(workspace).stdout(log).stderr(log).start();
            } catch (IOException e) {
                throw new AbortException("aiperf: cannot start the engine: " + e.getMessage());
            }
            try {
                exitCode = proc.join();
            } catch (InterruptedException e) {
                aborted = e;
                exitCode = stop(proc, pidFile);
            }
        }
        final LinkedHashMap<String, Object> summary = collect(invocation.exportDir(), prefix, archive,
                unstableOnWarnings, exitCode);
        if (aborted != null) {
            throw aborted;
        }
        apply(summary, handler);
        return summary;
    }

    /** Runs a short engine command (no secrets) and returns what it printed; its errors go to the build log. */
    String output(final List<String> cmd) throws IOException, InterruptedException {
        final Proc proc = launcher.launch().cmds(cmd).envs(env).pwd(workspace).readStdout()
                .stderr(listener.getLogger()).start();
        final byte[] out;
        try (java.io.InputStream in = proc.getStdout()) {
            out = in == null ? new byte[0] : in.readAllBytes();
        }
        final int exit = proc.join();
        if (exit != ExitCode.OK) {
            throw new AbortException("aiperf: the engine exited with code " + exit + " (see the log above)");
        }
        return new String(out, java.nio.charset.StandardCharsets.UTF_8);
    }

    /**
     * SIGTERM first, so the engine writes its partial results (SIGTERM rather than SIGINT: an agent started in the
     * background may pass SIGINT on as ignored, and the JVM then never sees it); a hard kill if it does not exit in
     * time.
     */
    private int stop(final Proc proc, final FilePath pidFile) throws IOException, InterruptedException {
        listener.getLogger().println("aiperf: the build was aborted; stopping the engine so it writes its partial results");
        if (launcher.isUnix() && pidFile.exists()) {
            launcher.launch().cmds("kill", "-TERM", pidFile.readToString().trim()).quiet(true).stdout(listener).join();
            return proc.joinWithTimeout(STOP_WAIT_SECONDS, TimeUnit.SECONDS, listener);
        }
        proc.kill();
        return ExitCode.CANCELLED;
    }

    private LinkedHashMap<String, Object> collect(final String exportDir, final String prefix, final boolean archive,
                                                  final boolean unstableOnWarnings, final int exitCode)
            throws IOException, InterruptedException {
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
        AiperfBuildAction.record(run, prefix, summary);
        return summary;
    }

    private void apply(final Map<String, Object> summary, final ResultHandler handler) throws AbortException {
        final String verdict = String.valueOf(summary.get(StepSummary.VERDICT));
        final List<?> warnings = (List<?>) summary.get(StepSummary.WARNINGS);
        warnings.forEach(w -> listener.getLogger().println("aiperf warning: " + w));
        final String reasons = String.join("; ", strings(summary.get(StepSummary.REASONS)));
        switch (verdict) {
            case "SUCCESS" -> listener.getLogger().println("aiperf: SUCCESS");
            case "UNSTABLE" -> {
                listener.getLogger().println("aiperf: UNSTABLE: " + reasons);
                handler.setResult(Result.UNSTABLE, "aiperf: " + reasons);
            }
            default -> throw new AbortException("aiperf: " + verdict + ": " + reasons);
        }
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

    @Override
    public void close() throws IOException, InterruptedException {
        scratch.deleteRecursive();
    }

    /** The build log belongs to Jenkins; closing the masking stream must not close it. */
    private static final class NonClosing extends java.io.FilterOutputStream {
        NonClosing(final OutputStream out) {
            super(out);
        }

        @Override
        public void write(final byte[] b, final int off, final int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            out.flush();
        }
    }
}
