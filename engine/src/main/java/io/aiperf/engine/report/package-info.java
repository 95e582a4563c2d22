/** The run report: one self-contained HTML page with inline SVG charts, readable without JavaScript or CSS. */
package io.aiperf.engine.report;
