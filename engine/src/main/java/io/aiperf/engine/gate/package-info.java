/**
 * The regression gate: rules, baselines, noise-aware verdicts (noise floor, Welch's t-test over trials, and with one
 * trial per side a bootstrap and a rank test over the requests) and the JSON, JUnit XML and Markdown reports. Any CI
 * gets the same decision from {@code aiperf gate}.
 */
package io.aiperf.engine.gate;
