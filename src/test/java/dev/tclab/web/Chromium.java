package dev.tclab.web;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.ColorScheme;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Debian's headless Chromium, launched the way every browser test here needs it (DESIGN.md, "Browser tests"), with
 * the screens the pages are made for and the screenshots the tests leave under target/ for review.
 */
public final class Chromium implements AutoCloseable {

    /**
     * Listens for Content-Security-Policy violations into {@code window.__csp}. Added as an init script by the browser
     * driver, which the page's policy does not cover.
     */
    public static final String RECORD_CSP_VIOLATIONS = "window.__csp = []; document.addEventListener("
            + "'securitypolicyviolation', e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));";

    /** The screens the pages are made for. */
    public enum Screen {
        LAPTOP(1366, 768),
        PHONE(390, 844);

        private final int width;
        private final int height;

        Screen(int width, int height) {
            this.width = width;
            this.height = height;
        }

        /** Options of a context showing pages at this screen's size. */
        public Browser.NewContextOptions options() {
            return new Browser.NewContextOptions().setViewportSize(width, height);
        }
    }

    /** Null for a session in a browser this object does not own ({@link #sessionIn}). */
    private final Playwright playwright;

    private final Browser browser;

    private Chromium(Playwright playwright, Browser browser) {
        this.playwright = playwright;
        this.browser = browser;
    }

    public static Chromium launch() {
        Playwright playwright = Playwright.create();
        try {
            return new Chromium(
                    playwright,
                    playwright
                            .chromium()
                            .launch(new BrowserType.LaunchOptions()
                                    .setExecutablePath(Path.of("/usr/bin/chromium"))
                                    .setHeadless(true)
                                    .setArgs(List.of(
                                            "--headless",
                                            "--no-sandbox",
                                            "--disable-gpu",
                                            "--disable-background-networking",
                                            "--disable-component-update",
                                            "--disable-sync",
                                            "--no-first-run"))));
        } catch (RuntimeException e) {
            playwright.close();
            throw e;
        }
    }

    /**
     * A session in {@code browser}, which stays open after it: closing the session closes the contexts (and so the
     * pages) opened in the browser meanwhile. Tests run one at a time, so those are the session's own.
     */
    static Chromium sessionIn(Browser browser) {
        return new Chromium(null, browser);
    }

    public Browser browser() {
        return browser;
    }

    /** A new context (cookies of its own: a new learner) at {@code screen} in {@code scheme}. */
    public BrowserContext context(Screen screen, ColorScheme scheme, Duration timeout) {
        return context(screen.options().setColorScheme(scheme), timeout);
    }

    /** A new context with {@code options}, in which every action and wait gives up after {@code timeout}. */
    public BrowserContext context(Browser.NewContextOptions options, Duration timeout) {
        BrowserContext context = browser.newContext(options);
        context.setDefaultTimeout(timeout.toMillis());
        return context;
    }

    /** Saves what the viewport of {@code page} shows as target/{@code name}.png, for review. */
    public static void screenshot(Page page, String name) {
        page.screenshot(new Page.ScreenshotOptions().setPath(file(name)));
    }

    /** Saves the whole of {@code page}, beyond the viewport, as target/{@code name}.png. */
    public static void screenshotFullPage(Page page, String name) {
        page.screenshot(new Page.ScreenshotOptions().setPath(file(name)).setFullPage(true));
    }

    private static Path file(String name) {
        return Path.of("target", name + ".png");
    }

    @Override
    public void close() {
        if (playwright == null) {
            browser.contexts().forEach(BrowserContext::close);
        } else {
            browser.close();
            playwright.close();
        }
    }
}
