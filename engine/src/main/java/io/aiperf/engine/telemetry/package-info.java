/** The server's own view during a run: its Prometheus metrics, scraped while profiling phases run. */
package io.aiperf.engine.telemetry;
