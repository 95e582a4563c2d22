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
    /** Guarded by this: stop() must never interrupt a pool thread that has moved on to other work. */
    private transient Thread worker;
    private transient volatile Throwable stopCause;

    EngineStepExecution(final StepContext context) {
        super(context);
    }

    /** The step's work; an abort arrives as an {@link InterruptedException}. */
    protected abstract T work() throws Exception;

    @Override
    protected final T run() throws Exception {
        synchronized (this) {
            worker = Thread.currentThread();
        }
        try {
            return work();
        } catch (InterruptedException e) {
            final Throwable cause = stopCause;
            if (cause instanceof Exception abort) {
                throw abort; // the abort's own cause (e.g. ABORTED), after the partial results were archived
            }
            throw e;
        } finally {
            synchronized (this) {
                worker = null;
                Thread.interrupted(); // an abort that came as the work ended must not reach the pool's next task
            }
        }
    }

    @Override
    public void stop(final Throwable cause) throws Exception {
        synchronized (this) {
            if (worker != null && stopCause == null) {
                stopCause = cause;
                worker.interrupt(); // under the lock, so the thread is still this step's
                return;
            }
        }
        super.stop(cause); // not started yet, finished, or a second abort: stop now
    }
}
