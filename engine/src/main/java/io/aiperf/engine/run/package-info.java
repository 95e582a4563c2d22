/** Cells and phases: the phase orchestrator, open- and closed-loop runners, cancellation and progress. */
package io.aiperf.engine.run;
