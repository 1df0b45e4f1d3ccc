package dev.tclab.web;

import com.microsoft.playwright.BrowserContext;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.options.WaitForSelectorState;

/** What browser tests do on a lesson page's lab panel, as a learner would: start and stop the lab, type, move focus. */
public final class LearnerActions {

    private LearnerActions() {}

    /** The rows of {@code node}'s terminal, as xterm.js draws them. */
    public static Locator terminal(Page page, String node) {
        return page.locator(".tclab-pane[data-node=" + node + "] .xterm-rows");
    }

    /** Opens the lesson at {@code root}lessons/{@code lesson} in a new page, starts its lab and waits for the client's shell. */
    public static Page startLab(BrowserContext context, String root, String lesson) {
        Page page = context.newPage();
        page.navigate(root + "lessons/" + lesson);
        page.click("#lab-start");
        Locator client = terminal(page, "client");
        page.waitForCondition(() -> client.innerText().contains("root@client"));
        return page;
    }

    /** Types {@code text} into {@code node}'s terminal. */
    public static void typeInto(Page page, String node, String text) {
        page.locator(".tclab-pane[data-node=" + node + "] .xterm-helper-textarea")
                .focus();
        page.keyboard().type(text);
    }

    /** Stops the lab, confirming, and waits until it can be started again. */
    public static void stopLab(Page page) {
        page.click("#lab-stop");
        page.click("#lab-stop-confirm");
        page.locator("#lab-start").waitFor(new Locator.WaitForOptions().setState(WaitForSelectorState.VISIBLE));
    }

    /** The focused element matches {@code selector}. */
    public static boolean focused(Page page, String selector) {
        return (Boolean)
                page.evaluate("s => document.activeElement !== null && document.activeElement.matches(s)", selector);
    }

    /** The focused element is inside one that matches {@code selector}. */
    public static boolean focusedIn(Page page, String selector) {
        return (Boolean) page.evaluate(
                "s => document.activeElement !== null && document.activeElement.closest(s) !== null", selector);
    }

    /** Presses Tab (or Shift+Tab) until the focused element matches, as a keyboard user would. */
    public static void tabTo(Page page, String selector, boolean backwards) {
        for (int i = 0; i < 150; i++) {
            if (focused(page, selector)) {
                return;
            }
            page.keyboard().press(backwards ? "Shift+Tab" : "Tab");
        }
        throw new AssertionError("Tab never reached " + selector + "; focus is on "
                + page.evaluate("() => document.activeElement?.outerHTML.slice(0, 200)"));
    }
}
