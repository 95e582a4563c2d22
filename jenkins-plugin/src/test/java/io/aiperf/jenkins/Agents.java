package io.aiperf.jenkins;

import static org.junit.jupiter.api.Assertions.assertFalse;

import hudson.EnvVars;
import hudson.model.AbstractItem;
import hudson.model.Label;
import hudson.slaves.DumbSlave;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.jvnet.hudson.test.JenkinsRule;

/** Test agents whose environment names a Java (as a real agent's does), and checks on the engine's processes. */
final class Agents {
    private Agents() {
    }

    /** The step takes Java from its environment: this agent's JAVA_HOME is the test JVM's. */
    static EnvVars javaHome() {
        return new EnvVars("JAVA_HOME", System.getProperty("java.home"));
    }

    static DumbSlave withJava(final JenkinsRule j) throws Exception {
        return j.createOnlineSlave(null, javaHome());
    }

    static DumbSlave withJava(final JenkinsRule j, final Label label) throws Exception {
        return j.createOnlineSlave(label, javaHome());
    }

    /** The running engine processes whose command line contains the marker (e.g. a model name only one test uses). */
    static List<ProcessHandle> engines(final String marker) {
        return ProcessHandle.allProcesses().filter(p -> p.info().commandLine().map(c -> c.contains(marker)
                && c.contains("-jar")).orElse(false)).toList();
    }

    /** Every one of these processes has exited (each is waited for, up to a minute). */
    static void assertGone(final List<ProcessHandle> processes) throws Exception {
        for (final ProcessHandle p : processes) {
            try {
                p.onExit().get(60, TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                // asserted below
            }
            assertFalse(p.isAlive(), "engine process " + p.pid() + " is still running");
        }
    }

    /** An item's saved configuration, as Jenkins wrote it. */
    static String configXml(final AbstractItem item) throws Exception {
        return Files.readString(new File(item.getRootDir(), "config.xml").toPath(), StandardCharsets.UTF_8);
    }
}
