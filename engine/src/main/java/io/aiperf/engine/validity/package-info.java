/**
 * Whether a run measured what it claims (src-docs/validity.md): checks of the client's own health and of the sample,
 * each with its figure, thresholds and result, read from a cell's summary so the profile command and the gate judge
 * the same way.
 */
package io.aiperf.engine.validity;
