/**
 * What one {@code aiperf profile} does, from the parsed request to its exit code ({@link ProfilePlan}): the mock
 * server, the checks before any traffic, the run directory, readiness, the search or the cells, the gate, the
 * report's judgement, the OTel push and the JSON summary. The command line only parses, prints and exits.
 */
package io.aiperf.engine.profile;
