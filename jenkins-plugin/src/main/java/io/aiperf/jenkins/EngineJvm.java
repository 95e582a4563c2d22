package io.aiperf.jenkins;

import hudson.AbortException;
import hudson.EnvVars;
import hudson.FilePath;
import hudson.Launcher;
import hudson.model.Computer;
import hudson.model.JDK;
import hudson.model.Node;
import hudson.model.TaskListener;
import hudson.slaves.WorkspaceList;
import io.aiperf.engine.ci.EngineLaunch;
import io.aiperf.engine.ci.JavaLocator;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.UUID;
import jenkins.model.Jenkins;

/**
 * The engine's JVM where the step runs: Java from the step's {@code jdk} tool or its environment (so a step
 * inside {@code container()} or {@code docker.image().inside} uses the container's Java, which the agent JVM's
 * {@code java.home} is not), the engine jar cached next to the workspace under its hash (copied only when missing,
 * and visible inside those containers, which mount the workspace and its {@code @tmp} folder), and the class-data
 * archive and {@code AIPERF_JAVA_OPTS} as {@code bin/aiperf} uses them ({@link EngineLaunch}).
 */
final class EngineJvm {
    /** The runnable engine, bundled in the plugin at build time. */
    private static final String ENGINE_JAR = "engine/aiperf.jar";
    private static volatile String bundledHash;

    private final List<String> command;
    private final String java;
    private final String jar;
    /** The class list this run writes (its first {@code profile} or {@code compare} without an archive), or null. */
    private final FilePath classList;
    private final String token;
    private final FilePath archive;

    private EngineJvm(final List<String> command, final String java, final String jar, final FilePath classList,
                      final String token, final FilePath archive) {
        this.command = command;
        this.java = java;
        this.jar = jar;
        this.classList = classList;
        this.token = token;
        this.archive = archive;
    }

    /** {@code [java, <JVM options>, -jar, <engine jar>]} on the agent. */
    List<String> command() {
        return command;
    }

    /**
     * @param jdk the step's {@code jdk} setting, or null
     * @param subcommand the engine command this JVM runs (only {@code profile} and {@code compare} list their
     *                   classes for an archive)
     */
    static EngineJvm prepare(final FilePath workspace, final EnvVars env, final Launcher launcher,
                             final TaskListener listener, final String jdk, final String subcommand)
            throws IOException, InterruptedException {
        final String[] found = findJava(workspace, env, launcher, listener, jdk);
        final String java = found[0];
        final String hash = bundledHash();
        final FilePath tmp = WorkspaceList.tempDir(workspace);
        if (tmp == null) {
            throw new AbortException("aiperf: the workspace " + workspace.getRemote() + " has no temporary directory");
        }
        final FilePath cache = tmp.child("aiperf-engine");
        final FilePath jarDir = cache.child(hash.substring(0, 16));
        final FilePath jar = jarDir.child("aiperf.jar");
        if (!jar.exists()) {
            jarDir.mkdirs();
            final FilePath part = jar.withSuffix(".part-" + UUID.randomUUID());
            part.copyFrom(bundled());
            try {
                part.renameTo(jar);
                listener.getLogger().println("aiperf: copied the engine jar to " + jar.getRemote());
            } catch (IOException e) {
                part.delete();
                if (!jar.exists()) {
                    throw e;
                } // else another call of this workspace put the same jar there first
            }
        }
        pruneOtherJars(cache, jarDir.getName());
        FilePath archive = null;
        FilePath classList = null;
        final String token = UUID.randomUUID().toString().substring(0, 8);
        final String cdsDir = EngineLaunch.cdsDir(env, cache.child("cds").getRemote());
        if (cdsDir != null) {
            final String path = EngineLaunch.cdsArchive(cdsDir, hash, java, found[1]);
            final FilePath existing = new FilePath(workspace.getChannel(), path);
            if (existing.exists() && existing.length() > 0) {
                archive = existing;
            } else if (EngineLaunch.records(subcommand)) {
                new FilePath(workspace.getChannel(), cdsDir).mkdirs(); // the archive's folder (cdsArchive's rule)
                classList = new FilePath(workspace.getChannel(), EngineLaunch.classList(path, token));
                archive = existing;
            }
        }
        final List<String> command;
        try {
            command = EngineLaunch.command(java, jar.getRemote(), env,
                    archive != null && classList == null ? archive.getRemote() : null,
                    classList == null ? null : classList.getRemote());
        } catch (IllegalArgumentException e) { // AIPERF_JIT neither quick nor full
            throw new AbortException("aiperf: " + e.getMessage());
        }
        return new EngineJvm(command, java, jar.getRemote(), classList, token, archive);
    }

    /**
     * After a run that listed its classes: builds the static class-data archive from the list, keeps it under the
     * archive's name if this JVM can map it (as {@code bin/aiperf} does), else deletes it; the list goes either way.
     * Never fails the step.
     */
    void buildArchive(final FilePath workspace, final EnvVars env, final Launcher launcher)
            throws InterruptedException {
        if (classList == null) {
            return;
        }
        final FilePath built = new FilePath(archive.getChannel(), EngineLaunch.built(archive.getRemote(), token));
        try {
            if (classList.exists() && classList.length() > 0 && !archive.exists()
                    && quietly(launcher, workspace, env, EngineLaunch.buildArchive(java, jar, classList.getRemote(),
                            built.getRemote())) == 0
                    && quietly(launcher, workspace, env, EngineLaunch.checkArchive(java, jar, built.getRemote())) == 0
                    && !archive.exists()) {
                built.renameTo(archive);
            }
        } catch (IOException e) {
            // a warm start is an optimisation: a cache that cannot be written costs time, never the build
        } finally {
            deleteQuietly(built);
            deleteQuietly(classList);
        }
    }

    /** Runs a class-data command on the agent, its output discarded; returns its exit code. */
    private static int quietly(final Launcher launcher, final FilePath workspace, final EnvVars env,
                               final List<String> cmd) throws IOException, InterruptedException {
        return launcher.launch().cmds(cmd).envs(env).pwd(workspace).quiet(true)
                .stdout(OutputStream.nullOutputStream()).stderr(OutputStream.nullOutputStream()).join();
    }

    private static void deleteQuietly(final FilePath file) throws InterruptedException {
        try {
            file.delete(); // nothing to do when it is gone (kept under the archive's name, or never written)
        } catch (IOException e) {
            // a leftover file costs disk space, never the build
        }
    }

    /** Deletes the engine jars of other plugin versions, each in its own hash folder; never fails the step. */
    private static void pruneOtherJars(final FilePath cache, final String keep) throws InterruptedException {
        try {
            for (final FilePath dir : cache.listDirectories()) {
                if (!dir.getName().equals(keep) && dir.getName().matches("[0-9a-f]{16}")) {
                    dir.deleteRecursive();
                }
            }
        } catch (IOException e) {
            // an old jar costs disk space, never the build
        }
    }

    /** Deletes the class list this JVM was writing (after an abort: a stopped run's list is not built from). */
    void discardClassList() throws InterruptedException {
        if (classList != null) {
            deleteQuietly(classList); // the next run lists its own under another name
        }
    }

    /** @return the Java command and its {@code -version} text */
    private static String[] findJava(final FilePath workspace, final EnvVars env, final Launcher launcher,
                                     final TaskListener listener, final String jdk)
            throws IOException, InterruptedException {
        String jdkHome = null;
        if (jdk != null) {
            final JDK tool = Jenkins.get().getJDK(jdk);
            final Computer computer = workspace.toComputer();
            final Node node = computer == null ? null : computer.getNode();
            if (tool != null && node != null) {
                jdkHome = tool.forNode(node, listener).forEnvironment(env).getHome();
            }
        }
        String onPath = null;
        if (jdk == null) {
            for (final String java : JavaLocator.executablesOnPath(env, launcher.isUnix())) {
                if (new FilePath(workspace.getChannel(), java).exists()) {
                    onPath = java;
                    break;
                }
            }
        }
        final List<JavaLocator.Candidate> candidates = JavaLocator.candidates(jdk, jdkHome, env, launcher.isUnix(),
                onPath);
        final List<String> failures = new ArrayList<>();
        for (final JavaLocator.Candidate c : candidates) {
            try {
                // Collected through a stream, not readStderr(): inside container() the exec's own streams are
                // the only ones that carry the output.
                final java.io.ByteArrayOutputStream said = new java.io.ByteArrayOutputStream();
                final int exit = launcher.launch().cmds(c.java(), "-version").envs(env).pwd(workspace).quiet(true)
                        .stdout(said).stderr(said).join();
                final String version = said.toString(StandardCharsets.UTF_8).trim();
                final String tooOld = exit == 0 ? JavaLocator.versionProblem(version) : null;
                if (tooOld != null) {
                    listener.getLogger().println("aiperf: not using Java from " + c.source() + ": " + tooOld);
                    failures.add(tooOld);
                } else if (exit == 0) {
                    listener.getLogger().println("aiperf: Java from " + c.source() + ": " + version.lines().findFirst()
                            .orElse(c.java()));
                    return new String[] {c.java(), version};
                } else {
                    failures.add("'" + c.java() + " -version' exited with code " + exit);
                }
            } catch (IOException e) {
                failures.add("cannot start '" + c.java() + "': " + e.getMessage());
            }
        }
        throw new AbortException("aiperf: " + JavaLocator.notFound(jdk, candidates, failures));
    }

    private static URL bundled() throws AbortException {
        final URL url = EngineJvm.class.getResource(ENGINE_JAR);
        if (url == null) {
            throw new AbortException("aiperf: this plugin was built without its engine jar (" + ENGINE_JAR + ")");
        }
        return url;
    }

    /** SHA-256 of the bundled engine jar, computed once per controller start. */
    private static String bundledHash() throws IOException {
        String h = bundledHash;
        if (h == null) {
            try (InputStream in = bundled().openStream()) {
                final MessageDigest sha = MessageDigest.getInstance("SHA-256");
                final byte[] buf = new byte[1 << 16];
                for (int n = in.read(buf); n >= 0; n = in.read(buf)) {
                    sha.update(buf, 0, n);
                }
                h = HexFormat.of().formatHex(sha.digest());
            } catch (NoSuchAlgorithmException e) {
                throw new IOException("no SHA-256 in this JVM", e);
            }
            bundledHash = h;
        }
        return h;
    }
}
