// Compile-only stand-in of a public Jenkins API signature (core's hudson.model.queue.Tasks, since 2.266), written
// for this project; not Jenkins code. Only .ci/run's type-check on a machine without a Jenkins built from source
// reads it (the shared stand-ins lack this class); the plugin's real build compiles against Jenkins core, and nothing
// here is ever packaged or run.
package hudson.model.queue;

import edu.umd.cs.findbugs.annotations.NonNull;
import hudson.model.Queue;
import org.springframework.security.core.Authentication;

public class Tasks {
    public static @NonNull Authentication getAuthenticationOf2(@NonNull Queue.Task t) {
        throw new UnsupportedOperationException("compile-only stub");
    }
}
