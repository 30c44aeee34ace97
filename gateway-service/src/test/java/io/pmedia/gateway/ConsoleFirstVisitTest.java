package io.pmedia.gateway;

import org.junit.jupiter.api.Test;

/**
 * What a new vendor's first visit to the console found (issue 39), each a check of
 * {@code src/test/browser/console-first-visit.mjs} in Debian's Chromium against a fake API shaped like
 * docs/openapi.yaml, with the clock fixed where the local and the UTC date differ: a template's renditions (an object
 * keyed by output name) in the render panel, no status poll after SUCCESS, usage asked up to tomorrow (the end is
 * exclusive) on Home, the Usage page and the operator's page, the daily charts labelled from each period's
 * {@code start}, a Usage page in the menu, the vendor's name in the header, "1 attempt", and axe-core on every page
 * at 1280 px and 360 px, light and dark, with no serious or critical violation. No stack needed; about a minute.
 */
class ConsoleFirstVisitTest {

    @Test
    void aFirstVisitFindsNoneOfTheIssuesBugs() throws Exception {
        // About a minute on a quiet 2-core machine; the bound is for a loaded one.
        ConsoleBrowser.run("console-first-visit.mjs", 10).assertEveryCheckPassed(51);
    }
}
