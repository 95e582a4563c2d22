package io.aiperf.jenkins;

import hudson.remoting.VirtualChannel;
import io.aiperf.engine.ci.ArchivePlanner;
import io.aiperf.engine.ci.StepSummary;
import java.io.File;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import jenkins.MasterToSlaveFileCallable;

/**
 * The small pieces of work done on the agent, next to the files. Each returns JDK types only; the engine's
 * ci classes they call are loaded on the agent, but none of their types crosses the channel.
 */
final class AgentCalls {
    private AgentCalls() {
    }

    /** The files to archive under an export directory of the workspace ({@link ArchivePlanner}). */
    static final class ListExports extends MasterToSlaveFileCallable<ArrayList<String>> {
        private static final long serialVersionUID = 1L;
        private final String exportDir;

        ListExports(final String exportDir) {
            this.exportDir = exportDir;
        }

        @Override
        public ArrayList<String> invoke(final File workspace, final VirtualChannel channel) {
            return new ArrayList<>(ArchivePlanner.plan(workspace.toPath().resolve(exportDir), List.of(), List.of()));
        }
    }

    /** The step's summary from the engine's exit code and files ({@link StepSummary}). */
    static final class Summarize extends MasterToSlaveFileCallable<LinkedHashMap<String, Object>> {
        private static final long serialVersionUID = 1L;
        private final String exportDir;
        private final int exitCode;
        private final boolean unstableOnWarnings;
        private final ArrayList<String> archived;

        Summarize(final String exportDir, final int exitCode, final boolean unstableOnWarnings,
                  final List<String> archived) {
            this.exportDir = exportDir;
            this.exitCode = exitCode;
            this.unstableOnWarnings = unstableOnWarnings;
            this.archived = new ArrayList<>(archived);
        }

        @Override
        public LinkedHashMap<String, Object> invoke(final File workspace, final VirtualChannel channel) {
            return StepSummary.of(exitCode, workspace.toPath().resolve(exportDir), unstableOnWarnings, archived);
        }
    }
}
