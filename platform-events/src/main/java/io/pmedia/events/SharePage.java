package io.pmedia.events;

import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What one customer's share page shows of its template (docs/sharing.md), computed where the video ends (media-service
 * for a realtime request, batch-service for a row) from the template definition and the customer's fields: the
 * template's name as title, its call to action with {@code {{field}}} placeholders filled (percent-encoded in the URL,
 * which must still be an http(s) URL, else there is no call to action), and its branding.
 */
public record SharePage(String title, SharedVideo.Cta cta, SharedVideo.Branding branding) {

    public static final Pattern PLACEHOLDER = Pattern.compile("\\{\\{\\s*([A-Za-z0-9_-]+)\\s*}}");

    /** The page of {@code template} (a definition as registered) for a customer with {@code fields}. */
    public static SharePage of(JsonNode template, Map<String, String> fields) {
        Map<String, String> defaults = new HashMap<>();
        for (JsonNode field : template.path("fields")) {
            if (field.hasNonNull("name") && field.hasNonNull("default")) {
                defaults.put(field.get("name").asText(), field.get("default").asText());
            }
        }
        Function<String, String> value = name -> {
            String given = fields == null ? null : fields.get(name);
            return given != null ? given : defaults.getOrDefault(name, "");
        };
        SharedVideo.Cta cta = null;
        JsonNode action = template.path("cta");
        if (action.hasNonNull("label") && action.hasNonNull("url")) {
            String url = fill(action.get("url").asText(), value, true);
            if (isHttpUrl(url)) {
                cta = new SharedVideo.Cta(printable(fill(action.get("label").asText(), value, false)), url);
            }
        }
        JsonNode brand = template.path("branding");
        SharedVideo.Branding branding = brand.isObject()
                ? new SharedVideo.Branding(text(brand, "logo-url"), text(brand, "color"))
                : null;
        return new SharePage(text(template, "name"), cta, branding);
    }

    /** {@code text} with each {@code {{field}}} replaced; in a URL, the value percent-encoded. */
    public static String fill(String text, Function<String, String> value, boolean url) {
        if (text == null) {
            return null;
        }
        Matcher placeholder = PLACEHOLDER.matcher(text);
        StringBuilder filled = new StringBuilder();
        while (placeholder.find()) {
            String replacement = value.apply(placeholder.group(1));
            if (url) {
                replacement = URLEncoder.encode(replacement, StandardCharsets.UTF_8).replace("+", "%20");
            }
            placeholder.appendReplacement(filled, Matcher.quoteReplacement(replacement));
        }
        placeholder.appendTail(filled);
        return filled.toString();
    }

    /** An absolute http(s) URL with a host and nothing invisible in it. */
    public static boolean isHttpUrl(String value) {
        if (value == null || value.isEmpty() || value.length() > 2048 || value.chars().anyMatch(c -> c <= ' '
                || c == 0x7f)) {
            return false;
        }
        try {
            URI uri = new URI(value);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            return (scheme.equals("http") || scheme.equals("https")) && uri.getHost() != null
                    && !uri.getHost().isEmpty();
        } catch (URISyntaxException e) {
            return false;
        }
    }

    /** Line breaks and control characters out of a one-line label. */
    private static String printable(String text) {
        return text.replaceAll("[\\p{Cntrl}\\p{Cf}]+", " ").strip();
    }

    private static String text(JsonNode node, String field) {
        return node.hasNonNull(field) ? node.get(field).asText() : null;
    }
}
