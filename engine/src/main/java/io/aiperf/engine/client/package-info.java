/** The inference client: URL joining, request bodies and headers, the async HTTP transport and the SSE parser. */
package io.aiperf.engine.client;
