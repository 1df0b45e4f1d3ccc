package dev.tclab.web;

import static dev.tclab.web.LearnerActions.stopLab;
import static dev.tclab.web.LearnerActions.terminal;
import static dev.tclab.web.LearnerActions.typeInto;
import static org.assertj.core.api.Assertions.assertThat;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.ColorScheme;
import dev.tclab.web.Chromium.Screen;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The latency plot of bufferbloat-upload in headless Chromium at 1366×768 against a real lab: the probe's points are
 * drawn in the probe's colour, an upload started in the client's terminal lifts them to hundreds of milliseconds, and
 * the plot follows dark mode. Screenshots land in target/ for review.
 */
@QuarkusTest
class LatencyPlotBrowserIT extends ChromiumTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);
    private static final String CHART = ".tclab-pane[data-node=client] .tclab-latency";
    /** latency.js's colour of a lab's first probe, light and dark. */
    private static final List<Integer> LIGHT_FIRST = List.of(0x6a, 0x1b, 0x9a);

    private static final List<Integer> DARK_FIRST = List.of(0xd5, 0x9c, 0xff);
    /** Canvas pixels within a few levels of the colour, fully opaque. */
    private static final String PIXELS_OF = """
            ([selector, rgb]) => {
              const canvas = document.querySelector(selector);
              const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
              let n = 0;
              for (let i = 0; i < data.length; i += 4) {
                if (Math.abs(data[i] - rgb[0]) < 12 && Math.abs(data[i + 1] - rgb[1]) < 12
                    && Math.abs(data[i + 2] - rgb[2]) < 12 && data[i + 3] > 200) n++;
              }
              return n;
            }""";

    private static int pixels(Page page, List<Integer> rgb) {
        return ((Number) page.evaluate(PIXELS_OF, List.of(CHART + " canvas", rgb))).intValue();
    }

    @Test
    void shouldDrawTheProbesRoundTripsRiseUnderAnUploadAndFollowDarkMode() {
        try (BrowserContext context = chromium.context(Screen.LAPTOP, ColorScheme.LIGHT, TIMEOUT)) {
            Page page = context.newPage();
            page.navigate(root + "lessons/bufferbloat-upload");
            page.click("#lab-start");
            Locator chart = page.locator(CHART);
            page.waitForCondition(() -> chart.count() == 1
                    && chart.getAttribute("data-points") != null
                    && Integer.parseInt(chart.getAttribute("data-points")) >= 10);
            assertThat(chart.locator(".u-legend").innerText()).contains("client to server");
            assertThat(Double.parseDouble(chart.getAttribute("data-latest-ms")))
                    .as("an idle line, ms")
                    .isLessThan(20.0);
            assertThat(pixels(page, LIGHT_FIRST))
                    .as("the probe's points and line, drawn in its colour")
                    .isGreaterThan(50);
            assertThat(chart.locator("canvas").boundingBox().width)
                    .as("the chart is drawn at the pane's width")
                    .isGreaterThan(300);

            Locator client = terminal(page, "client");
            page.waitForCondition(() -> client.innerText().contains("root@client"));
            typeInto(page, "client", "iperf3 -c 198.51.100.10 -C cubic -t 10 >/dev/null\n");
            page.waitForCondition(() -> Double.parseDouble(chart.getAttribute("data-latest-ms")) > 150);
            System.out.println("latency plot under an upload: " + chart.getAttribute("data-latest-ms") + " ms, "
                    + chart.getAttribute("data-points") + " points");
            Chromium.screenshot(page, "latency-plot-1366x768");

            page.emulateMedia(new Page.EmulateMediaOptions().setColorScheme(ColorScheme.DARK));
            page.waitForCondition(() -> pixels(page, DARK_FIRST) > 50);
            assertThat(pixels(page, LIGHT_FIRST))
                    .as("no light-mode colour left in dark mode")
                    .isLessThan(10);
            Chromium.screenshot(page, "latency-plot-dark-1366x768");
            stopLab(page);
        }
    }
}
