package io.pmedia.engagement.service;

import java.util.List;
import java.util.Locale;

/**
 * Obvious bots (docs/sharing.md): crawlers, link unfurlers of chat and social apps, and HTTP libraries. Their page
 * loads count as bot views, never as views; beacons they send are flagged the same way. A browser that runs the
 * page's script is a viewer, headless or not.
 */
public final class Bots {

    /**
     * Substrings of the agents (lower case). In-app browsers of chat and social apps are people and stay out; their
     * link unfurlers name themselves ({@code Slackbot}, {@code Discordbot}, {@code TelegramBot}, {@code WhatsApp/}).
     */
    private static final List<String> AGENTS = List.of("bot", "crawler", "spider", "slurp", "facebookexternalhit",
            "facebookcatalog", "whatsapp/", "embedly", "skypeuripreview", "vkshare", "w3c_validator", "preview",
            "curl/", "wget/", "python-requests", "python-urllib", "go-http-client", "java/", "okhttp", "httpclient",
            "node-fetch", "axios/", "libwww", "scrapy", "mastodon/", "iframely", "outbrain", "google-pagerenderer",
            "feedfetcher");

    private Bots() {
    }

    public static boolean isBot(String userAgent) {
        if (userAgent == null || userAgent.isBlank()) {
            return true;
        }
        String agent = userAgent.toLowerCase(Locale.ROOT);
        return AGENTS.stream().anyMatch(agent::contains);
    }
}
