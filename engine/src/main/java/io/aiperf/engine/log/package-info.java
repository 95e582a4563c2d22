/** The run's log: levels for the console (-v, -vv, --log-level) and each cell's logs/aiperf.log. */
package io.aiperf.engine.log;
