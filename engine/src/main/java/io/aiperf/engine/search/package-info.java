/** Capacity search (src-docs/capacity.md): the highest concurrency whose cells meet the SLOs. */
package io.aiperf.engine.search;
