package io.aiperf.jenkins;

import org.jenkinsci.plugins.workflow.steps.StepContext;
import org.jenkinsci.plugins.workflow.steps.SynchronousNonBlockingStepExecution;

/**
 * How the aiperf steps run: on a thread of their own, and stopped gracefully. The first abort interrupts that
 * thread: Jenkins' launcher then sends SIGTERM to the engine's process tree (no SIGKILL follows), the
 * runner waits for the engine to finish writing, archives the partial results and only then ends the step with the
 * abort's cause; a second abort ends it at once (the default). A restart fails a running step, as
 * {@link SynchronousNonBlockingStepExecution} does.
 */
abstract class EngineStepExecution<T> extends SynchronousNonBlockingStepExecution<T> {
    private static final long serialVersionUID = 1L;
    private transient volatile Thread worker;
    private transient volatile Throwable stopCause;

    EngineStepExecution(final StepContext context) {
        super(context);
    }

    /** The step's work; an abort arrives as an {@link InterruptedException}. */
    protected abstract T work() throws Exception;

    @Override
    protected final T run() throws Exception {
        worker = Thread.currentThread();
        try {
            return work();
        } catch (InterruptedException e) {
            final Throwable cause = stopCause;
            if (cause instanceof Exception abort) {
                throw abort; // the abort's own cause (e.g. ABORTED), after the partial results were archived
            }
            throw e;
        } finally {
            worker = null;
        }
    }

    @Override
    public void stop(final Throwable cause) throws Exception {
        final Thread running = worker;
        if (running == null || stopCause != null) {
            super.stop(cause); // not started yet, or a second abort: stop now
            return;
        }
        stopCause = cause;
        running.interrupt();
    }
}
