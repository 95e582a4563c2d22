/**
 * The regression gate: rules, baselines, noise-aware verdicts (noise floor, Welch's t-test) and the JSON,
 * JUnit XML and Markdown reports. Any CI gets the same decision from {@code aiperf gate}.
 */
package io.aiperf.engine.gate;
