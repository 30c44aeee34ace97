package io.pmedia.examples;

import io.pmedia.client.PmediaClient;

/** A client from the base URL and the client credentials; it fetches, caches and refreshes the token itself. */
public final class Token {

    private Token() {
    }

    public static void main(String[] args) {
        PmediaClient pmedia = PmediaClient.builder(Env.get("PMEDIA_GATEWAY_URL"))
                .credentials(Env.get("PMEDIA_DEMO_CLIENT_ID"), Env.get("PMEDIA_DEMO_CLIENT_SECRET"))
                .build();
        System.out.println("access token: " + pmedia.accessToken());
    }
}
