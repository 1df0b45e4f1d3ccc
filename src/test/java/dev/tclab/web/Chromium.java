package dev.tclab.web;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Playwright;
import java.nio.file.Path;
import java.util.List;

/** Debian's headless Chromium, launched the way every browser test here needs it (DESIGN.md, "Browser tests"). */
final class Chromium {

    private Chromium() {
    }

    static Browser launch(Playwright playwright) {
        return playwright.chromium().launch(new BrowserType.LaunchOptions()
                .setExecutablePath(Path.of("/usr/bin/chromium")).setHeadless(true)
                .setArgs(List.of("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                        "--disable-component-update", "--disable-sync", "--no-first-run")));
    }
}
