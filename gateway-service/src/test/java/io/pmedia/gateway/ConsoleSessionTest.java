package io.pmedia.gateway;

import org.junit.jupiter.api.Test;

/**
 * The console's session goes through the TypeScript SDK that gateway-service's build bundles for it (issue 34):
 * {@code src/test/browser/console-session.mjs} drives the console in Debian's Chromium against a fake API whose answers
 * each check sets. A refused secret is shown with the API's message, status and code; every call carries the token and
 * nothing is stored; a 401 fetches one new token and sends the call again; a 503 to a GET is sent again, to a POST the
 * document does not mark idempotent it is not and its error is shown; a token still refused after a new one signs the
 * vendor out and leaves nothing of the page; the operator's calls carry the admin token. No stack; about 20 seconds.
 */
class ConsoleSessionTest {

    @Test
    void theSessionRefreshesRetriesAndShowsErrorsThroughTheSdk() throws Exception {
        ConsoleBrowser.run("console-session.mjs", 5).assertEveryCheckPassed(7);
    }
}
