package io.aiperf.engine.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.aiperf.engine.mock.MockServer;
import io.aiperf.engine.mock.MockServerConfig;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** {@code aiperf report --trend} over recorded run directories: a well-formed SVG with every series and axis labels. */
class TrendReportEndToEndTest {
    @TempDir
    Path tmp;

    @Test
    void trendOfThreeRecordedRunsShowsEverySeriesWithLabelledAxes() throws Exception {
        final List<String> runs = new ArrayList<>();
        final int[] ttftMillis = {10, 25, 40};
        for (int i = 0; i < ttftMillis.length; i++) {
            try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(ttftMillis[i], 1))) {
                final Path dir = tmp.resolve("build-" + (i + 1));
                assertThat(Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming", "--concurrency", "2",
                        "--request-count", "8", "--isl", "8", "--osl", "3", "--artifact-dir", dir.toString())
                        .exitCode()).isZero();
                runs.add(dir.toString());
            }
        }
        final Path svg = tmp.resolve("trend.svg");
        final List<String> args = new ArrayList<>(List.of("report", "--trend"));
        args.addAll(runs);
        args.addAll(List.of("--output", svg.toString()));
        assertThat(Runs.aiperf(args.toArray(new String[0])).exitCode()).isZero();

        final DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        final Document doc = f.newDocumentBuilder().parse(svg.toFile());
        assertThat(doc.getDocumentElement().getLocalName()).isEqualTo("svg");
        final List<Element> panels = byClass(doc, "g", "panel");
        assertThat(panels).extracting(p -> p.getAttribute("data-metric")).containsExactly("time_to_first_token_p50",
                "time_to_first_token_p99", "inter_token_latency_avg", "request_throughput_avg",
                "output_token_throughput_avg", "error_rate");
        for (final Element panel : panels) {
            final Element series = byClass(panel, "polyline", "series").get(0);
            assertThat(series.getAttribute("points").split(" ")).hasSize(3);
            assertThat(text(panel, "x-label")).containsExactly("build");
            assertThat(text(panel, "y-label")).singleElement().asString().isNotBlank();
            assertThat(text(panel, "x-tick")).containsExactly("build-1", "build-2", "build-3");
            final List<String> ticks = text(panel, "y-tick");
            assertThat(ticks).hasSizeGreaterThanOrEqualTo(2);
            assertThat(Double.parseDouble(ticks.get(0))).isZero(); // from zero, written with its step's decimals
            assertThat(byClass(panel, "line", "x-axis")).hasSize(1);
            assertThat(byClass(panel, "line", "y-axis")).hasSize(1);
        }
        assertThat(text(panels.get(0), "y-label")).containsExactly("ms");
        // A slower server draws a rising TTFT line: SVG's y grows downwards.
        final String[] ttft = byClass(panels.get(0), "polyline", "series").get(0).getAttribute("points").split(" ");
        assertThat(y(ttft[0])).isGreaterThan(y(ttft[1]));
        assertThat(y(ttft[1])).isGreaterThan(y(ttft[2]));
        assertThat(java.nio.file.Files.readString(svg)).doesNotContain("<script").doesNotContain("onload");
    }

    @Test
    void trendOfFourLabelledBuildsOfASweepWithTrialsDrawsOneSeriesPerSweepPoint() throws Exception {
        final List<String> args = new ArrayList<>(List.of("report", "--trend"));
        try (MockServer mock = MockServer.start(MockServerConfig.fast().withLatency(5, 1))) {
            for (int build = 1; build <= 4; build++) {
                final Path dir = tmp.resolve("ci-folder-" + build);
                final Runs.Result r = Runs.aiperf("profile", "-m", "m", "-u", mock.url(), "--streaming",
                        "--concurrency", "1,2", "--num-profile-runs", "2", "--request-count", "4", "--isl", "8",
                        "--osl", "2", "--label", "#" + build, "--artifact-dir", dir.toString());
                assertThat(r.exitCode()).as(r.err()).isZero();
                args.add(dir.toString());
            }
        }
        final Path svg = tmp.resolve("sweep-trend.svg");
        args.addAll(List.of("-o", svg.toString()));
        assertThat(Runs.aiperf(args.toArray(new String[0])).exitCode()).isZero();
        final DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        final Document doc = f.newDocumentBuilder().parse(svg.toFile());
        final List<Element> panels = byClass(doc, "g", "panel");
        assertThat(panels).isNotEmpty();
        for (final Element panel : panels) {
            final List<Element> series = byClass(panel, "polyline", "series");
            assertThat(series).extracting(e -> e.getAttribute("data-series"))
                    .containsExactly("concurrency_1", "concurrency_2");
            for (final Element line : series) {
                assertThat(line.getAttribute("points").split(" ")).hasSize(4);
            }
            assertThat(text(panel, "x-tick")).containsExactly("#1", "#2", "#3", "#4"); // the label, not the folder
            assertThat(Double.parseDouble(text(panel, "y-tick").get(0))).isZero();
        }
        assertThat(Runs.aiperf("profile", "-m", "m", "-u", "http://127.0.0.1:9", "--label", " ",
                "--artifact-dir", tmp.resolve("bad").toString()).err()).contains("--label: must not be empty");
    }

    private static double y(final String point) {
        return Double.parseDouble(point.split(",")[1]);
    }

    private static List<Element> byClass(final Object root, final String tag, final String cls) {
        final NodeList nodes = root instanceof Document d ? d.getElementsByTagNameNS("*", tag)
                : ((Element) root).getElementsByTagNameNS("*", tag);
        final List<Element> out = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            final Element e = (Element) nodes.item(i);
            if (e.getAttribute("class").equals(cls)) {
                out.add(e);
            }
        }
        return out;
    }

    private static List<String> text(final Element panel, final String cls) {
        return byClass(panel, "text", cls).stream().map(Element::getTextContent).toList();
    }
}
